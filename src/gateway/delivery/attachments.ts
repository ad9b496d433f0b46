import { stat } from 'node:fs/promises';
import type { MediaRef } from './media.js';
import { errorCodeText } from '../../util/error-text.js';

/** Which MEDIA files can be sent, and a note for the reply about each one that cannot. */
export interface CheckedAttachments {
  readonly sendable: MediaRef[];
  readonly notes: string[];
}

/**
 * Sorts the files a reply names into sendable ones and notes for the reply ("⚠️ Could not attach ...").
 * Files `alreadySent` (by an earlier attempt of the same turn) are neither sent again nor noted.
 */
export async function checkAttachments(params: {
  media: readonly MediaRef[];
  canSend: boolean;
  alreadySent: (path: string) => boolean;
  /** Resolves with a reason when a file must not be sent (private or outside the allowed folders). */
  refuse?: (params: { path: string }) => Promise<string | undefined>;
}): Promise<CheckedAttachments> {
  const sendable: MediaRef[] = [];
  const notes: string[] = [];
  for (const item of params.media) {
    if (params.alreadySent(item.path)) continue;
    const problem = !params.canSend
      ? 'this platform cannot receive files'
      : ((await params.refuse?.({ path: item.path })) ?? (await fileProblem({ path: item.path })));
    if (problem === undefined) sendable.push(item);
    else notes.push(`⚠️ Could not attach ${item.path}: ${problem}`);
  }
  return { sendable, notes };
}

/** Why `path` cannot be sent as a file, or undefined when it can. */
async function fileProblem(params: { path: string }): Promise<string | undefined> {
  try {
    const info = await stat(params.path);
    return info.isFile() ? undefined : 'not a regular file';
  } catch (error) {
    const code = errorCodeText(error);
    if (code === 'ENOENT' || code === 'ENOTDIR') return 'file not found';
    if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
    return `cannot read it (${code})`;
  }
}
