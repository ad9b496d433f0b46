import path from 'node:path';
import type { Logger } from 'pino';
import type { MediaItem } from '../../src/core/adapter.js';
import { mediaKindOf } from '../kit/media-kind-of.js';
import { downloadMediaItem, isMediaItem } from '../kit/media-download.js';
import { safeFileName, trustedDownloadHost } from '../../src/util/download.js';
import type { TwilioMedia } from './inbound.js';
import { sizeText } from './size-text.js';

/** File extensions for the MIME types MMS commonly carries (anything else is saved as .bin). */
const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'audio/amr': 'amr',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'audio/mp4': 'm4a',
  'video/mp4': 'mp4',
  'video/3gpp': '3gp',
  'text/vcard': 'vcf',
  'text/x-vcard': 'vcf',
  'text/plain': 'txt',
  'application/pdf': 'pdf',
};

/** Whether a media URL may receive the account credentials: Twilio's own hosts, or the configured API host. */
export function trustedMediaHost(params: { url: string; apiBase: string }): boolean {
  return trustedDownloadHost({ url: params.url, domain: 'twilio.com', apiBase: params.apiBase });
}

/**
 * Downloads the media of an incoming MMS (HTTP basic auth with the account SID and auth token) into `dir` as
 * `<MessageSid>-<n>.<ext>`, each capped at `maxBytes`; notes the ones that could not be taken.
 */
export async function downloadTwilioMedia(params: {
  media: readonly TwilioMedia[];
  messageSid: string;
  dir: string;
  accountSid: string;
  authToken: string;
  apiBase: string;
  maxBytes: number;
  signal: AbortSignal;
  logger: Logger;
}): Promise<{ media: MediaItem[]; notes: string[] }> {
  const media: MediaItem[] = [];
  const notes: string[] = [];
  const authorization = `Basic ${Buffer.from(`${params.accountSid}:${params.authToken}`).toString('base64')}`;
  for (const [index, item] of params.media.entries()) {
    const mimeType = item.contentType?.split(';')[0]?.trim().toLowerCase();
    const name = safeFileName(`${params.messageSid}-${index}.${(mimeType !== undefined ? EXTENSIONS[mimeType] : undefined) ?? 'bin'}`);
    if (!trustedMediaHost({ url: item.url, apiBase: params.apiBase })) {
      params.logger.warn({ messageSid: params.messageSid, index }, 'MMS media URL is not on a Twilio host; not sending the credentials there');
      notes.push(`[attachment ${index + 1} was not downloaded: its URL is not a Twilio media URL]`);
      continue;
    }
    const target = path.join(params.dir, name);
    const got = await downloadMediaItem({
      url: item.url,
      target,
      kind: mediaKindOf({ name, ...(mimeType ? { mimeType } : {}) }),
      fileName: name,
      ...(mimeType ? { mimeType } : {}),
      maxBytes: params.maxBytes,
      signal: params.signal,
      headers: { authorization },
    });
    if (isMediaItem(got)) {
      media.push(got);
    } else {
      const why = got.tooLarge ? `it is over the ${sizeText({ bytes: params.maxBytes })} limit` : 'the download failed';
      params.logger.warn({ messageSid: params.messageSid, index, reason: got.reason }, 'MMS media not downloaded');
      notes.push(`[attachment ${index + 1} (${mimeType ?? 'unknown type'}) was not downloaded: ${why}]`);
    }
  }
  return { media, notes };
}
