import { mkdir, open, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A download stopped because the file grew past the limit. */
export class TooLargeError extends Error {
  override readonly name = 'TooLargeError';
}

/**
 * Streams `url` into `target`, stopping (and deleting the partial file) once more than `maxBytes` arrived, so a
 * wrong declared size cannot fill the disk. Returns the byte count. `headers` may carry a token: never log them.
 */
export async function downloadCapped(params: { url: string; target: string; maxBytes: number; signal: AbortSignal; headers?: Record<string, string> }): Promise<number> {
  const file = await openCacheFile({ target: params.target });
  let seen = 0;
  try {
    const response = await fetch(params.url, { signal: params.signal, ...(params.headers ? { headers: params.headers } : {}) });
    if (!response.ok || response.body === null) throw new Error(`download answered ${response.status}`);
    const cap = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        seen += chunk.length;
        if (seen > params.maxBytes) done(new TooLargeError(`over ${params.maxBytes} bytes`));
        else done(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(response.body), cap, file.createWriteStream());
  } catch (error) {
    // The write stream closes the file when it ends either way; before it exists, this does.
    await file.close().catch(() => undefined);
    await rm(params.target, { force: true });
    throw error;
  }
  return seen;
}

/**
 * Opens `target` in the media cache for writing, making its folder first; once more when the folder went in between
 * (the cache's maintenance removes folders it emptied).
 */
export async function openCacheFile(params: { target: string }): Promise<FileHandle> {
  for (let attempt = 0; ; attempt += 1) {
    await mkdir(path.dirname(params.target), { recursive: true });
    try {
      return await open(params.target, 'w');
    } catch (error) {
      if (attempt > 0 || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}

/** A file name safe inside a cache folder: no separators, no leading dots, bounded length. */
export function safeFileName(name: string): string {
  return name.replace(/[/\\\0]/g, '_').replace(/^\.+/, '_').slice(0, 120) || 'file';
}

/**
 * Whether a download URL may be sent the platform's credentials: a host of the platform's own domain (over
 * https) or the configured API host (a proxy, a compatible provider, a test server). Anything else would leak
 * the token to whoever a message points at.
 */
export function trustedDownloadHost(params: { url: string; domain: string; apiBase: string }): boolean {
  try {
    const url = new URL(params.url);
    if (url.host === new URL(params.apiBase).host) return true;
    return url.protocol === 'https:' && (url.host === params.domain || url.host.endsWith(`.${params.domain}`));
  } catch {
    return false;
  }
}
