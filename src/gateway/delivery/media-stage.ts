import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { mkdir, open, realpath, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { MAX_SCAN_BYTES } from '../../secrets/file-scan.js';
import type { SecretGuard } from '../../secrets/guard.js';
import { diskErrorKind, diskReason } from '../../util/disk-error.js';
import { errorCodeText } from '../../util/error-text.js';

/** A file copied aside to be sent, or why it cannot be. */
export type StagedMedia =
  | { readonly kind: 'staged'; readonly path: string; readonly release: () => Promise<void> }
  | { readonly kind: 'refused'; readonly reason: string };

/** Copies a checked file aside and checks the copy again; what the platform uploads is exactly the copy. */
export type MediaStager = (params: { path: string }) => Promise<StagedMedia>;

/**
 * A stager that copies each file a reply attaches into `<cacheDir>/outgoing/<random>/<its name>` through one open
 * file descriptor (the final symlink not followed, the inode the path named checked), then scans the copy's bytes
 * for secrets. The policy checked the path before; the file could have been swapped since (a symlink to .env, a
 * background job rewriting it) — the upload never reads the original again, so what was scanned is what is sent.
 */
export function mediaStager(params: { cacheDir: string; secrets: Pick<SecretGuard, 'scanFile'> }): MediaStager {
  return async ({ path: requested }) => {
    let source: string;
    try {
      source = await realpath(requested);
    } catch (error) {
      return { kind: 'refused', reason: problemOf({ error }) };
    }
    const dir = path.join(params.cacheDir, 'outgoing', randomBytes(9).toString('hex'));
    const release = (): Promise<void> => rm(dir, { recursive: true, force: true });
    try {
      const handle = await open(source, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      try {
        const [held, current] = await Promise.all([handle.stat(), stat(source)]);
        if (!held.isFile()) return { kind: 'refused', reason: 'not a regular file' };
        if (held.ino !== current.ino || held.dev !== current.dev) return { kind: 'refused', reason: 'it changed while it was being checked; ask again' };
        if (held.size > MAX_SCAN_BYTES) return { kind: 'refused', reason: `it is too large to check for secrets (${held.size} bytes; at most ${MAX_SCAN_BYTES} are checked)` };
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const name = path.basename(requested);
        const copy = path.join(dir, name === '' || name === '.' || name === '..' ? path.basename(source) : name);
        await copyOut({ from: handle, to: copy });
        const scan = await params.secrets.scanFile({ path: copy });
        if (scan.kind === 'clean') return { kind: 'staged', path: copy, release };
        await release();
        if (scan.kind === 'secret') return { kind: 'refused', reason: "it contains one of the profile's secrets (a token, key or password), so it is not sent" };
        if (scan.kind === 'too_large') return { kind: 'refused', reason: `it is too large to check for secrets (${scan.size} bytes; at most ${scan.limit} are checked)` };
        return { kind: 'refused', reason: scan.kind === 'unreadable' ? `cannot read it (${scan.code})` : 'not a regular file' };
      } finally {
        await handle.close();
      }
    } catch (error) {
      await release().catch(() => undefined);
      return { kind: 'refused', reason: problemOf({ error, dir: params.cacheDir }) };
    }
  };
}

/** Bytes copied at a time. */
const COPY_CHUNK = 1024 * 1024;

/** Copies everything `from` holds (read through the open descriptor, never the path again) into a new file `to`. */
async function copyOut(params: { from: FileHandle; to: string }): Promise<void> {
  const out = await open(params.to, 'wx', 0o600);
  try {
    const buffer = Buffer.alloc(COPY_CHUNK);
    for (let position = 0; ; ) {
      const { bytesRead } = await params.from.read({ buffer, offset: 0, length: buffer.length, position });
      if (bytesRead === 0) return;
      await out.write(buffer, 0, bytesRead);
      position += bytesRead;
    }
  } finally {
    await out.close();
  }
}

/** What the user is told when a file could not be read or copied aside. */
function problemOf(params: { error: unknown; dir?: string }): string {
  const { error } = params;
  const code = errorCodeText(error);
  const disk = params.dir === undefined ? undefined : diskErrorKind({ error, path: params.dir });
  if (disk !== undefined) return `it could not be prepared for sending: ${diskReason({ kind: disk })} (${code}); free some space and ask again`;
  if (code === 'ENOENT' || code === 'ENOTDIR') return 'file not found';
  if (code === 'ELOOP') return 'it is a symbolic link that changed while it was being checked; ask again';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return `cannot read it (${code})`;
}
