import { closeSync, constants, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { scanForThreats } from '../../threats/scan.js';
import type { PromptLayer, PromptLogger } from './types.js';

/** Searched from the workspace up to its git root; the first found is used. */
const hermesFiles: readonly string[] = ['.hermes.md', 'HERMES.md'];

/** Read from the workspace itself, each one that exists, in this order. */
const workspaceFiles: readonly string[] = ['AGENTS.md', 'CLAUDE.md', '.cursorrules'];

/** A context file found on disk. */
export interface ContextFile {
  /** Absolute path. */
  readonly path: string;
  /** How the prompt names it: its path relative to the workspace. */
  readonly label: string;
}

/** The nearest folder at or above `dir` holding `.git` (a folder or a worktree's file), if any. */
export function gitRoot(params: { dir: string }): string | undefined {
  let dir = path.resolve(params.dir);
  for (;;) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The context files of a workspace, in prompt order: the first `.hermes.md` / `HERMES.md` from the workspace up to
 * its git root (only the workspace itself when it is not in a git repository), then AGENTS.md, CLAUDE.md and
 * .cursorrules in the workspace.
 */
export function findContextFiles(params: { workspace: string }): ContextFile[] {
  const workspace = path.resolve(params.workspace);
  const root = gitRoot({ dir: workspace });
  const found: ContextFile[] = [];
  const hermes = findUp({ from: workspace, to: root ?? workspace, names: hermesFiles });
  if (hermes !== undefined) found.push({ path: hermes, label: path.relative(workspace, hermes) });
  for (const name of workspaceFiles) {
    const file = path.join(workspace, name);
    if (existsSync(file)) found.push({ path: file, label: name });
  }
  return found;
}

/** The first of `names` in `from`, then in each parent folder up to and including `to`. */
function findUp(params: { from: string; to: string; names: readonly string[] }): string | undefined {
  let dir = params.from;
  for (;;) {
    for (const name of params.names) {
      const file = path.join(dir, name);
      if (existsSync(file)) return file;
    }
    const parent = path.dirname(dir);
    if (dir === params.to || parent === dir) return undefined;
    dir = parent;
  }
}

/** A file's text capped at `maxChars`, with a note saying it was cut (`totalBytes`: the file's size when only its start was read). */
export function capText(params: { text: string; maxChars: number; label: string; totalBytes?: number }): string {
  const { text, maxChars } = params;
  if (text.length <= maxChars && params.totalBytes === undefined) return text;
  const size = params.totalBytes === undefined ? `${text.length} characters` : `${params.totalBytes} bytes`;
  return `${text.slice(0, maxChars)}\n[… ${params.label} was cut here: it has ${size}, the first ${maxChars} are shown]`;
}

/** What reading a context file gave: its text (only the start of a big one), or why it was left out. */
export type ReadOutcome = { readonly ok: true; readonly text: string; readonly totalBytes?: number } | { readonly ok: false; readonly code: string };

/**
 * Reads at most what `maxChars` characters can take in UTF-8 (4 bytes each), so a huge file costs no more than a
 * capped one. Only regular files: a FIFO or device (opened without blocking) is left out, never waited on.
 */
export function readStart(params: { file: string; maxChars: number }): ReadOutcome {
  let fd: number;
  try {
    fd = openSync(params.file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return { ok: false, code: (error as NodeJS.ErrnoException).code ?? 'error' };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, code: stat.isDirectory() ? 'EISDIR' : 'not a regular file' };
    const limit = Math.min(stat.size, params.maxChars * 4);
    const buffer = Buffer.alloc(limit);
    let read = 0;
    while (read < limit) {
      const n = readSync(fd, buffer, read, limit - read, read);
      if (n === 0) break;
      read += n;
    }
    const text = buffer.subarray(0, read).toString('utf8');
    return stat.size > read ? { ok: true, text, totalBytes: stat.size } : { ok: true, text };
  } catch (error) {
    return { ok: false, code: (error as NodeJS.ErrnoException).code ?? 'error' };
  } finally {
    closeSync(fd);
  }
}

/** One file's section: read, capped, scanned (a threat replaces the content); undefined when it cannot be read. */
function section(params: { file: ContextFile; maxChars: number; logger: PromptLogger }): string | undefined {
  const { file, logger } = params;
  const read = readStart({ file: file.path, maxChars: params.maxChars });
  if (!read.ok) {
    logger.warn({ file: file.path, code: read.code }, `context file ${file.label} could not be read; it is left out of the system prompt`);
    return undefined;
  }
  const text = read.text.trim();
  if (text === '') return undefined;
  const capped = capText({ text, maxChars: params.maxChars, label: file.label, ...(read.totalBytes !== undefined ? { totalBytes: read.totalBytes } : {}) });
  const finding = scanForThreats({ text: capped, source: 'context-file' });
  if (finding !== undefined) {
    logger.warn({ file: file.path, threat: finding.id, category: finding.category }, `context file ${file.label} blocked: ${finding.reason}`);
    return `## ${file.label}\n[BLOCKED: ${file.label}: ${finding.reason}]`;
  }
  return `## ${file.label}\n${capped}`;
}

/** The project-context layer: the workspace's context files (empty when there are none or `enabled` is false). */
export function contextFilesLayer(params: { workspace: string; enabled: boolean; maxChars: number; logger: PromptLogger }): PromptLayer {
  if (!params.enabled) return { name: 'context_files', text: '' };
  const sections = findContextFiles({ workspace: params.workspace })
    .map((file) => section({ file, maxChars: params.maxChars, logger: params.logger }))
    .filter((s): s is string => s !== undefined);
  if (sections.length === 0) return { name: 'context_files', text: '' };
  const intro = "# Project context\nInstructions from the owner's project files in your workspace:";
  return { name: 'context_files', text: [intro, ...sections].join('\n\n') };
}
