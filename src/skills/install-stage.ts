import { copyFileSync, createReadStream, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Unpack, type ReadEntry } from 'tar';
import { errorMessage } from '../util/error-text.js';

/** Limits on what one skill install may hold (checked while copying or extracting, before anything is written past them). */
export interface InstallLimits {
  /** Most bytes of file content in total. */
  readonly maxBytes: number;
  /** Most entries (files and folders). */
  readonly maxEntries: number;
}

/** 5 MB and 500 entries: far more than any procedure needs, small enough that a tar bomb cannot fill the disk. */
export const defaultInstallLimits: InstallLimits = { maxBytes: 5 * 1024 * 1024, maxEntries: 500 };

/** Staging succeeded, or the reason it was refused (and the entry it was refused for). */
export type StageResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/** "5 MB" for whole megabytes, else "250 bytes". */
function sizeText(bytes: number): string {
  const mb = 1024 * 1024;
  return bytes >= mb && bytes % mb === 0 ? `${bytes / mb} MB` : `${bytes.toLocaleString('en-US')} bytes`;
}

/** Counts entries and bytes against the limits; returns the reason once one is passed. */
class Budget {
  private entries = 0;
  private bytes = 0;

  constructor(private readonly limits: InstallLimits) {}

  /** Adds one entry of `size` bytes; a string is why the limits are passed. */
  add(params: { size: number; name: string }): string | undefined {
    this.entries += 1;
    this.bytes += params.size;
    if (this.entries > this.limits.maxEntries) return `more than ${this.limits.maxEntries} files and folders (at ${params.name})`;
    if (this.bytes > this.limits.maxBytes) return `larger than ${sizeText(this.limits.maxBytes)} in total (at ${params.name})`;
    return undefined;
  }
}

/**
 * Copies a local skill folder into `into` (which must exist and be empty): regular files and folders only. A
 * symlink or any other kind of file is refused (it could point outside the folder), as is passing the limits
 * (checked from each file's size before it is copied).
 */
export function copyFolder(params: { from: string; into: string; limits: InstallLimits }): StageResult {
  const budget = new Budget(params.limits);
  const walk = (rel: string): string | undefined => {
    for (const name of readdirSync(path.join(params.from, rel)).sort()) {
      const relPath = rel === '' ? name : `${rel}/${name}`;
      const source = path.join(params.from, relPath);
      const stat = lstatSync(source);
      if (stat.isSymbolicLink()) return `${relPath} is a symlink (copy the file it points to instead)`;
      if (!stat.isFile() && !stat.isDirectory()) return `${relPath} is not a regular file or folder`;
      const over = budget.add({ size: stat.isFile() ? stat.size : 0, name: relPath });
      if (over !== undefined) return over;
      const target = path.join(params.into, relPath);
      if (stat.isDirectory()) {
        mkdirSync(target, { mode: 0o700 });
        const inner = walk(relPath);
        if (inner !== undefined) return inner;
      } else {
        copyFileSync(source, target);
      }
    }
    return undefined;
  };
  const reason = walk('');
  return reason === undefined ? { ok: true } : { ok: false, reason };
}

/** Names of tar entry types that are refused, by what they are. */
const refusedTypes: Readonly<Record<string, string>> = {
  SymbolicLink: 'a symlink',
  Link: 'a hard link',
  CharacterDevice: 'a device file',
  BlockDevice: 'a device file',
  FIFO: 'a named pipe',
};

/** Why an archive entry's path is refused, if it is: absolute, a `..` part, a NUL or backslash. */
export function archivePathProblem(params: { path: string }): string | undefined {
  const p = params.path;
  if (p.includes('\0')) return 'holds a NUL character';
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p) || p.startsWith('\\')) return 'is an absolute path';
  if (p.includes('\\')) return 'holds a backslash';
  if (p.split('/').some((part) => part === '..')) return 'has a ".." part (it would land outside the skill folder)';
  return undefined;
}

/** Why one archive entry is refused, if it is. */
function entryProblem(params: { entry: ReadEntry; budget: Budget }): string | undefined {
  const { entry } = params;
  const name = entry.path;
  const pathProblem = archivePathProblem({ path: name });
  if (pathProblem !== undefined) return `archive entry "${name}" ${pathProblem}`;
  const refused = refusedTypes[entry.type];
  if (refused !== undefined) return `archive entry "${name}" is ${refused}; a skill holds only files and folders`;
  if (entry.type !== 'File' && entry.type !== 'OldFile' && entry.type !== 'ContiguousFile' && entry.type !== 'Directory') {
    return `archive entry "${name}" is of type ${entry.type}; a skill holds only files and folders`;
  }
  return params.budget.add({ size: entry.type === 'Directory' ? 0 : entry.size, name });
}

/**
 * Extracts a `.tar.gz`/`.tgz` (or plain tar) into `into` with the `tar` package. Every entry is checked in tar's
 * `filter`, before its content is written: symlinks, hard links, device files, absolute paths and `..` parts are
 * refused, and so is passing the limits (counted from the headers as extraction goes, so an archive that would
 * unpack to gigabytes stops at the limit). A refusal aborts the extraction; the caller removes `into`.
 */
export async function extractArchive(params: { file: string; into: string; limits: InstallLimits }): Promise<StageResult> {
  const budget = new Budget(params.limits);
  let refusal: string | undefined;
  let unpack: Unpack | undefined;
  const filter = (_path: string, entry: ReadEntry | import('node:fs').Stats): boolean => {
    if (refusal !== undefined) return false;
    if (!('type' in entry)) return false;
    refusal = entryProblem({ entry, budget });
    if (refusal === undefined) return true;
    unpack?.abort(new Error(refusal));
    return false;
  };
  const done = new Promise<void>((resolve, reject) => {
    unpack = new Unpack({ cwd: params.into, strict: true, filter, preserveOwner: false, noMtime: true, preservePaths: false, umask: 0o077 });
    const input = createReadStream(params.file);
    unpack.on('error', (error: Error) => {
      input.destroy();
      reject(error);
    });
    unpack.on('close', () => resolve());
    input.on('error', reject);
    input.pipe(unpack);
  });
  try {
    await done;
  } catch (error) {
    if (refusal !== undefined) return { ok: false, reason: refusal };
    const message = errorMessage(error).split('\n')[0] ?? '';
    return { ok: false, reason: `the archive could not be read: ${message}` };
  }
  return refusal === undefined ? { ok: true } : { ok: false, reason: refusal };
}
