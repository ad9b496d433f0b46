import type { MediaKind } from '../../src/core/adapter.js';

/** Which Bot API method sends a file of this kind. */
export type SendFileMethod = 'sendPhoto' | 'sendAudio' | 'sendVoice' | 'sendDocument';

/**
 * Telegram's way to show each kind of MEDIA file: pictures as photos, audio as audio, .ogg/.opus voice as voice
 * notes, everything else (videos included) as a document.
 */
export function sendMethodFor(params: { kind: MediaKind; path: string }): SendFileMethod {
  switch (params.kind) {
    case 'image':
      // Telegram re-encodes photos and rejects some formats; GIFs and SVGs go as documents.
      return /\.(png|jpe?g|webp)$/i.test(params.path) ? 'sendPhoto' : 'sendDocument';
    case 'voice':
      return 'sendVoice';
    case 'audio':
      return 'sendAudio';
    case 'video':
    case 'document':
      return 'sendDocument';
  }
}
