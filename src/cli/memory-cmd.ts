import { spawn } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TEMP_PREFIX } from '../util/atomic-write.js';
import { contentProblem } from '../memory/checks.js';
import { MemoryFiles } from '../memory/files.js';
import { entriesChars, grouped, parseEntries, usageText } from '../memory/format.js';
import { memoryReport } from '../memory/report.js';
import { memorySettingsFrom } from '../memory/settings.js';
import type { MemoryTarget } from '../memory/capability.js';
import { ToolError } from '../core/errors.js';
import { systemClock } from '../core/clock.js';
import { loadExistingProfile, type GlobalOptions, type LoadedProfile } from './context.js';
import { println, type CliIO } from './output.js';

/** The profile's memory files with its config's limits and its secrets. */
function filesOf(params: { loaded: LoadedProfile }): MemoryFiles {
  const { profile, config, redactor } = params.loaded;
  return new MemoryFiles({ memoriesDir: profile.memoriesDir, settings: memorySettingsFrom({ config }), clock: systemClock, containsSecret: (text) => redactor.contains(text) });
}

/** `hermes memory show [--target memory|user]`: the entries of both files (or one), numbered, with their usage. */
export async function memoryShow(params: { options: GlobalOptions; io: CliIO; target?: MemoryTarget }): Promise<number> {
  const loaded = await loadExistingProfile(params);
  const files = filesOf({ loaded });
  const report = memoryReport({ read: (target) => files.read(target), ...(params.target !== undefined ? { target: params.target } : {}) });
  println({ stream: params.io.stdout, text: loaded.redactor.scrub(report) });
  return 0;
}

/** Why an edited file may not be saved: each entry's content problem, and the limit. Empty when it may. */
function editProblems(params: { entries: readonly string[]; files: MemoryFiles; target: MemoryTarget; containsSecret: (text: string) => boolean }): string[] {
  const info = params.files.info({ target: params.target });
  const problems = params.entries.flatMap((entry, i) => {
    const problem = contentProblem({ text: entry, fileName: info.fileName, containsSecret: params.containsSecret });
    return problem === undefined ? [] : [`entry ${i + 1}: ${problem}`];
  });
  const used = entriesChars({ entries: params.entries });
  if (used > info.limit) problems.push(`${grouped({ n: used })}/${grouped({ n: info.limit })} chars: ${grouped({ n: used - info.limit })} over the limit (memory.${params.target === 'memory' ? 'memory' : 'user'}_char_limit); shorten or merge entries`);
  return problems;
}

/** Runs the owner's editor on `file` through the shell (so `EDITOR="code -w"` works); resolves to its exit code. */
function runEditor(params: { io: CliIO; file: string }): Promise<number> {
  const editor = params.io.env['VISUAL'] || params.io.env['EDITOR'] || 'vi';
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', `${editor} "$1"`, 'sh', params.file], { stdio: 'inherit', env: { ...params.io.env } });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal !== null ? 128 : 1)));
  });
}

/**
 * `hermes memory edit [--target memory|user]`: opens $VISUAL/$EDITOR (else vi) on a copy of the file while holding
 * the memory write lock (the gateway's writes wait), then checks the result like a tool write (format, limit,
 * threat scan, secrets). A clean result replaces the file atomically; a refused one leaves the file as it was and
 * keeps the edited text in `<file>.rejected` so no work is lost.
 */
export async function memoryEdit(params: { options: GlobalOptions; io: CliIO; target?: MemoryTarget }): Promise<number> {
  const { io } = params;
  const target = params.target ?? 'memory';
  const loaded = await loadExistingProfile(params);
  const files = filesOf({ loaded });
  const info = files.info({ target });
  if (!info.enabled) {
    println({ stream: io.stderr, text: `error: ${info.fileName} is turned off for this profile (${info.enableKey}: false)` });
    return 1;
  }
  const file = files.fileOf({ target });
  const copy = path.join(files.dir, `${TEMP_PREFIX}edit-${process.pid}-${info.fileName}`);
  try {
    return await files.withLock({
      signal: new AbortController().signal,
      fn: async () => {
        let before = '';
        try {
          before = readFileSync(file, 'utf8');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
        writeFileSync(copy, before, { mode: 0o600 });
        try {
          return await editCopy({ io, copy, before, file, files, target, containsSecret: (text) => loaded.redactor.contains(text) });
        } finally {
          rmSync(copy, { force: true });
        }
      },
    });
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    println({ stream: io.stderr, text: `error: ${error.message}` });
    return 1;
  }
}

/** Runs the editor on the copy, checks the result and saves it (or keeps it aside); resolves to the exit code. */
async function editCopy(params: { io: CliIO; copy: string; before: string; file: string; files: MemoryFiles; target: MemoryTarget; containsSecret: (text: string) => boolean }): Promise<number> {
  const { io, copy, before, file, files, target } = params;
  const info = files.info({ target });
  const code = await runEditor({ io, file: copy });
  if (code !== 0) {
    println({ stream: io.stderr, text: `error: the editor exited with code ${code}; ${info.fileName} is unchanged` });
    return 1;
  }
  const after = readFileSync(copy, 'utf8');
  if (after === before) {
    println({ stream: io.stdout, text: `${info.fileName}: no changes` });
    return 0;
  }
  const entries = [...new Set(parseEntries({ text: after }))];
  const problems = editProblems({ entries, files, target, containsSecret: params.containsSecret });
  if (problems.length > 0) {
    const rejected = `${file}.rejected`;
    writeFileSync(rejected, after, { mode: 0o600 });
    println({ stream: io.stderr, text: `error: ${info.fileName} was not changed; the edit has problems:` });
    for (const problem of problems) println({ stream: io.stderr, text: `  - ${problem}` });
    println({ stream: io.stderr, text: `hint: your edited text is kept in ${rejected}; fix it and run \`hermes memory edit${target === 'user' ? ' --target user' : ''}\` again.` });
    return 1;
  }
  files.save({ file, entries });
  println({
    stream: io.stdout,
    text: `${info.fileName} saved: ${entries.length} entries, ${usageText({ used: entriesChars({ entries }), limit: info.limit })}. The agent sees it from its next session on.`,
  });
  return 0;
}
