import path from 'node:path';
import type { Logger } from 'pino';
import type { MediaItem } from '../../src/core/adapter.js';
import { mediaKindOf } from '../kit/media-kind-of.js';
import { downloadMediaItem, isMediaItem } from '../kit/media-download.js';
import { safeFileName, trustedDownloadHost } from '../../src/util/download.js';
import type { SlackFile } from './inbound.js';

/** Downloads files shared with the app (with the bot token) into `dir`, size-capped; notes the ones that were not. */
export async function downloadSlackFiles(params: {
  files: readonly SlackFile[];
  dir: string;
  botToken: string;
  /** The configured Web API base; its host (a proxy, or a test server) is trusted like slack.com. */
  apiUrl: string;
  maxBytes: number;
  signal: AbortSignal;
  logger: Logger;
}): Promise<{ media: MediaItem[]; notes: string[] }> {
  const media: MediaItem[] = [];
  const notes: string[] = [];
  for (const file of params.files) {
    const name = file.name ?? file.id;
    const url = file.url_private_download ?? file.url_private;
    if (file.size !== undefined && file.size > params.maxBytes) {
      notes.push(`[${name} was not downloaded: it is over the ${Math.round(params.maxBytes / 1024 / 1024)} MB limit]`);
      continue;
    }
    if (url === undefined) {
      notes.push(`[${name} could not be downloaded: Slack gave no URL]`);
      continue;
    }
    if (!trustedDownloadHost({ url, domain: 'slack.com', apiBase: params.apiUrl })) {
      params.logger.warn({ fileId: file.id }, 'Slack file URL is not on a Slack host; not sending the bot token there');
      notes.push(`[${name} was not downloaded: its URL is not a Slack file URL]`);
      continue;
    }
    const target = path.join(params.dir, `${file.id}-${safeFileName(name)}`);
    const mimeType = file.mimetype;
    const got = await downloadMediaItem({
      url,
      target,
      kind: mediaKindOf({ name, ...(mimeType ? { mimeType } : {}) }),
      fileName: name,
      ...(mimeType ? { mimeType } : {}),
      maxBytes: params.maxBytes,
      signal: params.signal,
      headers: { authorization: `Bearer ${params.botToken}` },
    });
    if (isMediaItem(got)) {
      media.push(got);
    } else {
      params.logger.warn({ fileId: file.id, reason: got.reason }, 'Slack file not downloaded');
      notes.push(`[${name} was not downloaded: ${got.tooLarge ? 'it is over the size limit' : 'the download failed'}]`);
    }
  }
  return { media, notes };
}
