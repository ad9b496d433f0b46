import path from 'node:path';
import type { Logger } from 'pino';
import type { MediaItem } from '../../src/core/adapter.js';
import { mediaKindOf } from '../kit/media-kind-of.js';
import { downloadMediaItem, isMediaItem } from '../kit/media-download.js';
import { safeFileName } from '../../src/util/download.js';
import type { DiscordFileRef } from './inbound.js';

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
    const target = path.join(params.dir, `${params.messageId}-${index}-${safeFileName(file.name)}`);
    const mimeType = file.contentType;
    const got = await downloadMediaItem({
      url: file.url,
      target,
      kind: mediaKindOf({ name: file.name, ...(mimeType ? { mimeType } : {}) }),
      fileName: file.name,
      ...(mimeType ? { mimeType } : {}),
      maxBytes: params.maxBytes,
      signal: params.signal,
    });
    if (isMediaItem(got)) {
      media.push(got);
    } else {
      params.logger.warn({ fileName: file.name, reason: got.reason }, 'Discord attachment not downloaded');
      notes.push(`[${file.name} was not downloaded: the download failed]`);
    }
  }
  return { media, notes };
}
