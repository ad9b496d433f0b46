import path from 'node:path';
import type { Logger } from 'pino';
import type { MediaItem } from '../../src/gateway/contracts.js';
import { mediaKindOf } from '../../src/gateway/media-kind-of.js';
import { downloadCapped, safeFileName } from '../../src/util/download.js';
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
    try {
      const seen = await downloadCapped({ url: file.url, target, maxBytes: params.maxBytes, signal: params.signal });
      media.push({ path: target, kind: mediaKindOf({ name: file.name, ...(file.contentType ? { mimeType: file.contentType } : {}) }), fileName: file.name, sizeBytes: seen, ...(file.contentType ? { mimeType: file.contentType } : {}) });
    } catch (error) {
      if (params.signal.aborted) throw error;
      params.logger.warn({ fileName: file.name, reason: error instanceof Error ? error.message : String(error) }, 'Discord attachment not downloaded');
      notes.push(`[${file.name} was not downloaded: the download failed]`);
    }
  }
  return { media, notes };
}
