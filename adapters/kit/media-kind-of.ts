import type { MediaKind } from '../../src/core/adapter.js';

/** The kind of an inbound file from its MIME type or name (what the agent is told it received). */
export function mediaKindOf(params: { name: string; mimeType?: string }): MediaKind {
  const type = params.mimeType ?? '';
  if (type.startsWith('image/') || /\.(png|jpe?g|gif|webp)$/i.test(params.name)) return 'image';
  if (/\.(ogg|opus)$/i.test(params.name) || type === 'audio/ogg') return 'voice';
  if (type.startsWith('audio/') || /\.(mp3|m4a|wav|flac|aac)$/i.test(params.name)) return 'audio';
  if (type.startsWith('video/') || /\.(mp4|mov|webm|mkv)$/i.test(params.name)) return 'video';
  return 'document';
}
