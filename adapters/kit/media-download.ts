import { diskErrorKind, diskReason, errorCode } from '../../src/util/disk-error.js';
import { downloadCapped, TooLargeError } from '../../src/util/download.js';
import type { MediaItem, MediaKind } from '../../src/core/adapter.js';
import { errorMessage } from '../../src/util/error-text.js';

/** Why a file did not reach the cache: over the size limit, or another failure (with the error's message for logs). */
export interface MediaDownloadFailure {
  readonly tooLarge: boolean;
  readonly reason: string;
  /** The cache's disk refused the file (full, read-only): the message is still taken, without it. */
  readonly diskFull?: boolean;
}

/**
 * Downloads one inbound file into the profile cache (size-capped while streaming) and describes it for the agent.
 * A failure comes back as a value for the adapter's own note; when `signal` aborted, the error is thrown instead.
 */
export async function downloadMediaItem(params: {
  url: string;
  target: string;
  kind: MediaKind;
  fileName?: string;
  mimeType?: string;
  maxBytes: number;
  signal: AbortSignal;
  headers?: Record<string, string>;
}): Promise<MediaItem | MediaDownloadFailure> {
  try {
    const sizeBytes = await downloadCapped({
      url: params.url,
      target: params.target,
      maxBytes: params.maxBytes,
      signal: params.signal,
      ...(params.headers ? { headers: params.headers } : {}),
    });
    return {
      path: params.target,
      kind: params.kind,
      sizeBytes,
      ...(params.mimeType ? { mimeType: params.mimeType } : {}),
      ...(params.fileName !== undefined ? { fileName: params.fileName } : {}),
    };
  } catch (error) {
    if (params.signal.aborted) throw error;
    const kind = diskErrorKind({ error });
    if (kind !== undefined) return { tooLarge: false, diskFull: true, reason: `the media cache cannot be written (${diskReason({ kind })}, ${errorCode({ error }) || 'unknown'})` };
    return { tooLarge: error instanceof TooLargeError, reason: errorMessage(error) };
  }
}

/** Whether a download result is the file (not a failure). */
export function isMediaItem(result: MediaItem | MediaDownloadFailure): result is MediaItem {
  return 'path' in result;
}
