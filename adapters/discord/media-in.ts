import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import type { MediaItem, MediaKind } from '../../src/gateway/contracts.js';
import type { DiscordFileRef } from './inbound.js';

/** A kind for a file from its content type or name. */
function kindOf(params: { name: string; contentType?: string }): MediaKind {
  const type = params.contentType ?? '';
  if (type.startsWith('image/') || /\.(png|jpe?g|gif|webp)$/i.test(params.name)) return 'image';
  if (/\.(ogg|opus)$/i.test(params.name)) return 'voice';
  if (type.startsWith('audio/')) return 'audio';
  if (type.startsWith('video/')) return 'video';
  return 'document';
}

/** A name safe to use inside the cache folder (no path separators, no leading dots). */
function safeName(name: string): string {
  return name.replace(/[/\\\0]/g, '_').replace(/^\.+/, '_').slice(0, 120) || 'file';
}

/** Downloads a message's attachments into `dir` (size-capped while streaming); notes the ones that were not. */
export async function downloadAttachments(params: {
  files: readonly DiscordFileRef[];
  dir: string;
  messageId: string;
  maxBytes: number;
  signal: AbortSignal;
  logger: Logger;
}): Promise<{ media: MediaItem[]; notes: string[] }> {
  const media: MediaItem[] = [];
  const notes: string[] = [];
  for (const [index, file] of params.files.entries()) {
    if (file.size > params.maxBytes) {
      notes.push(`[${file.name} was not downloaded: it is over the ${Math.round(params.maxBytes / 1024 / 1024)} MB limit]`);
      continue;
    }
    const target = path.join(params.dir, `${params.messageId}-${index}-${safeName(file.name)}`);
    try {
      await mkdir(params.dir, { recursive: true });
      const response = await fetch(file.url, { signal: params.signal });
      if (!response.ok || response.body === null) throw new Error(`download answered ${response.status}`);
      let seen = 0;
      const cap = new Transform({
        transform(chunk: Buffer, _enc, done) {
          seen += chunk.length;
          done(seen > params.maxBytes ? new Error('over the size limit') : null, chunk);
        },
      });
      await pipeline(Readable.fromWeb(response.body), cap, createWriteStream(target));
      media.push({ path: target, kind: kindOf(file), fileName: file.name, sizeBytes: seen, ...(file.contentType ? { mimeType: file.contentType } : {}) });
    } catch (error) {
      await rm(target, { force: true });
      if (params.signal.aborted) throw error;
      params.logger.warn({ fileName: file.name, reason: error instanceof Error ? error.message : String(error) }, 'Discord attachment not downloaded');
      notes.push(`[${file.name} was not downloaded: the download failed]`);
    }
  }
  return { media, notes };
}
