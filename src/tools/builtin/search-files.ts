import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isWithin, resolveInWorkspace } from '../paths.js';
import { defineTool, ToolError } from '../tool.js';
import { statOrExplain } from './fs-errors.js';
import { globToRegExp } from './glob.js';

/** Directories never searched. */
const SKIPPED_DIRS = new Set(['node_modules', '.git']);
/** Files larger than this are skipped. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Longest matched line shown in full. */
const MAX_LINE_CHARS = 300;
/** Matches returned when the model gives no limit. */
const DEFAULT_MAX_RESULTS = 100;

const input = z.object({
  pattern: z.string().min(1).describe('JavaScript regular expression to look for in each line.'),
  glob: z.string().optional().describe("Only files whose path matches this glob, e.g. '**/*.ts' or '*.md'."),
  path: z.string().optional().describe('Directory or file to search, relative to the workspace. Default: the workspace.'),
  ignore_case: z.boolean().optional().describe('Match case-insensitively. Default false.'),
  max_results: z.number().int().min(1).max(1_000).optional().describe(`Most matches returned. Default ${DEFAULT_MAX_RESULTS}.`),
});

/** `search_files`: regex search over text files below a directory, as file:line:text. */
export const searchFilesTool = defineTool({
  name: 'search_files',
  description:
    'Search file contents with a regular expression. Returns matches as file:line:text, paths relative to the ' +
    'workspace. Narrow with glob (e.g. "**/*.ts") and path. Skips node_modules, .git, binary and very large files.',
  input,
  parallel: { paths: (args) => [{ path: args.path ?? '.', write: false }] },
  handler: async (args, ctx) => {
    const shownRoot = args.path ?? '.';
    const root = resolveInWorkspace({ workspace: ctx.workspace, path: shownRoot, confine: ctx.confineToWorkspace });
    let regex: RegExp;
    try {
      regex = new RegExp(args.pattern, args.ignore_case ? 'i' : '');
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ToolError(`pattern is not a valid regular expression: ${reason}`);
    }
    const filter = args.glob ? globToRegExp({ glob: args.glob }) : undefined;
    const max = args.max_results ?? DEFAULT_MAX_RESULTS;
    const stat = await statOrExplain({ abs: root, shown: shownRoot });
    const matches: string[] = [];
    const files = stat.isDirectory() ? walk({ dir: root, signal: ctx.signal }) : single(root);
    for await (const file of files) {
      const rel = path.relative(root, file).split(path.sep).join('/');
      if (filter && stat.isDirectory() && !filter.test(rel)) continue;
      const shown = isWithin({ root: ctx.workspace, child: file }) ? path.relative(ctx.workspace, file) : file;
      if (!(await searchFile({ file, shown, regex, matches, max }))) break;
    }
    if (matches.length === 0) {
      return `No matches for /${args.pattern}/ in ${shownRoot}${args.glob ? ` (files matching ${args.glob})` : ''}.`;
    }
    if (matches.length >= max) matches.push(`[Stopped at ${max} matches; narrow the pattern, glob or path to see others.]`);
    return matches.join('\n');
  },
});

/** Appends matching lines of one file; false once `max` matches are collected. */
async function searchFile(params: {
  file: string;
  shown: string;
  regex: RegExp;
  matches: string[];
  max: number;
}): Promise<boolean> {
  const stat = await fs.promises.stat(params.file).catch(() => undefined);
  if (!stat || stat.size > MAX_FILE_BYTES) return true;
  const buffer = await fs.promises.readFile(params.file).catch(() => undefined);
  if (!buffer || buffer.subarray(0, 8_192).includes(0)) return true;
  const lines = buffer.toString('utf8').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (!params.regex.test(line)) continue;
    const text = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
    params.matches.push(`${params.shown}:${i + 1}:${text.trim()}`);
    if (params.matches.length >= params.max) return false;
  }
  return true;
}

async function* single(file: string): AsyncGenerator<string> {
  yield file;
}

/** Regular files below `dir` in name order; symlinks and SKIPPED_DIRS are not followed. */
async function* walk(params: { dir: string; signal: AbortSignal }): AsyncGenerator<string> {
  params.signal.throwIfAborted();
  const entries = await fs.promises.readdir(params.dir, { withFileTypes: true }).catch(() => []);
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const full = path.join(params.dir, entry.name);
    if (entry.isDirectory() && !SKIPPED_DIRS.has(entry.name)) yield* walk({ dir: full, signal: params.signal });
    else if (entry.isFile()) yield full;
  }
}
