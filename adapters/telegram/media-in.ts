import path from 'node:path';
import type { Api } from 'grammy';
import type { Logger } from 'pino';
import type { MediaItem } from '../../src/core/adapter.js';
import { downloadMediaItem, isMediaItem, type MediaDownloadFailure } from '../kit/media-download.js';
import type { FileRef } from './inbound.js';
import { grammySignal } from './signal.js';
import { errorMessage } from '../../src/util/error-text.js';

/** Files of one message saved into the profile cache, and notes about the ones that were not. */
export interface DownloadedFiles {
  readonly media: MediaItem[];
  /** Lines for the agent, e.g. "[photo.jpg was not downloaded: 30 MB is over the 20 MB limit]". */
  readonly notes: string[];
}

/**
 * Downloads a message's files with the bot token into `dir` (size-capped while streaming, so a wrong
 * `file_size` cannot fill the disk). The token is part of the download URL: it is never logged.
 */
export async function downloadFiles(params: {
  api: Api;
  apiRoot: string;
  token: string;
  files: readonly FileRef[];
  dir: string;
  maxBytes: number;
  signal: AbortSignal;
  logger: Logger;
}): Promise<DownloadedFiles> {
  const media: MediaItem[] = [];
  const notes: string[] = [];
  for (const file of params.files) {
    const label = file.fileName ?? `a ${file.kind}`;
    if (file.size !== undefined && file.size > params.maxBytes) {
      notes.push(`[${label} was not downloaded: ${mb(file.size)} is over the ${mb(params.maxBytes)} limit]`);
      continue;
    }
    let got: MediaItem | MediaDownloadFailure;
    try {
      const info = await params.api.getFile(file.fileId, grammySignal(params.signal));
      if (info.file_path === undefined) throw new Error('Telegram gave no file path');
      const ext = path.extname(file.fileName ?? info.file_path) || '';
      const target = path.join(params.dir, `${file.fileUniqueId}${ext}`);
      const url = `${params.apiRoot.replace(/\/$/, '')}/file/bot${params.token}/${info.file_path}`;
      got = await downloadMediaItem({
        url,
        target,
        kind: file.kind,
        ...(file.fileName ? { fileName: file.fileName } : {}),
        ...(file.mimeType ? { mimeType: file.mimeType } : {}),
        maxBytes: params.maxBytes,
        signal: params.signal,
      });
    } catch (error) {
      if (params.signal.aborted) throw error;
      got = { tooLarge: false, reason: errorMessage(error) }; // getFile failed
    }
    if (isMediaItem(got)) {
      media.push(got);
    } else {
      // The download URL holds the bot token: log what failed, never the URL (the logger also scrubs secrets).
      params.logger.warn({ kind: file.kind, fileName: file.fileName, reason: got.reason }, 'Telegram file not downloaded');
      notes.push(`[${label} was not downloaded: ${got.tooLarge ? `it is over the ${mb(params.maxBytes)} limit` : 'the download failed'}]`);
    }
  }
  return { media, notes };
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 10 * 1024 * 1024 ? 1 : 0)} MB`;
}
