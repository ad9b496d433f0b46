import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { SecretMatcher } from './matcher.js';
import { errorCodeText } from '../util/error-text.js';

/** What scanning a file for secrets found. */
export type FileScan =
  | { readonly kind: 'clean' }
  | { readonly kind: 'secret' }
  | { readonly kind: 'too_large'; readonly size: number; readonly limit: number }
  | { readonly kind: 'unreadable'; readonly code: string }
  | { readonly kind: 'not_a_file' };

/** Largest file scanned (and so sendable): bigger than any platform takes as an attachment. */
export const MAX_SCAN_BYTES = 100 * 1024 * 1024;
/** Bytes read and searched at a time. */
const CHUNK_BYTES = 1024 * 1024;
/** Encoded forms are longer than the secret: hex with separators takes up to 8 characters a byte. */
const ENCODED_BYTES_PER_SECRET_BYTE = 8;

/**
 * Whether the file's bytes hold a secret in any form the matcher knows (also base64/hex-encoded, reversed,
 * spread out, or as UTF-16). Big files are read in chunks that overlap by more than the longest encoded
 * secret, so none is missed at a chunk boundary. Read errors are values, not throws.
 */
export async function scanFile(params: { path: string; matcher: SecretMatcher; maxBytes?: number; signal?: AbortSignal }): Promise<FileScan> {
  const { matcher } = params;
  const limit = params.maxBytes ?? MAX_SCAN_BYTES;
  if (matcher.isEmpty) return { kind: 'clean' };
  let handle;
  try {
    // Non-blocking, so a FIFO the agent made cannot stall delivery; it is refused as not a file below.
    handle = await open(params.path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { kind: 'unreadable', code: errorCodeText(error) };
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) return { kind: 'not_a_file' };
    const { size } = info;
    if (size > limit) return { kind: 'too_large', size, limit };
    const overlap = matcher.longestSecretBytes * ENCODED_BYTES_PER_SECRET_BYTE + 64;
    const buffer = Buffer.alloc(CHUNK_BYTES + overlap);
    let kept = 0;
    let position = 0;
    for (;;) {
      params.signal?.throwIfAborted();
      const { bytesRead } = await handle.read({ buffer, offset: kept, length: buffer.length - kept, position });
      if (bytesRead === 0 && position > 0) return { kind: 'clean' };
      position += bytesRead;
      const filled = kept + bytesRead;
      const text = buffer.toString('latin1', 0, filled);
      if (matcher.byteSpans({ text }).length > 0) return { kind: 'secret' };
      if (bytesRead === 0 || position >= limit) return { kind: 'clean' };
      kept = Math.min(overlap, filled);
      buffer.copy(buffer, 0, filled - kept, filled);
    }
  } catch (error) {
    if (params.signal?.aborted === true) throw error;
    return { kind: 'unreadable', code: errorCodeText(error) };
  } finally {
    await handle.close();
  }
}
