import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { isWithin, resolveInWorkspace } from '../paths.js';
import { defineTool } from '../tool.js';
import { statOrExplain } from './fs-errors.js';
import { globToRegExp } from './glob.js';
import { compileLinearPattern } from './linear-regex.js';
import { LineScan } from './search-scan.js';

/** Directories never searched. */
const SKIPPED_DIRS = new Set(['node_modules', '.git']);
/** Files larger than this are skipped. */
const MAX_FILE_BYTES = 2 * 1024 * 1024;
/** Matches returned when the model gives no limit. */
const DEFAULT_MAX_RESULTS = 100;
/** Longest pattern accepted (matching time grows with pattern size). */
const MAX_PATTERN_CHARS = 500;

const input = z.object({
  pattern: z
    .string()
    .min(1)
    .max(MAX_PATTERN_CHARS)
    .describe('JavaScript regex, matched per line: no lookaround, backreferences or {n,m} above 16.'),
  glob: z.string().optional().describe('e.g. **/*.ts'),
  path: z.string().optional(),
  ignore_case: z.boolean().optional(),
  max_results: z.number().int().min(1).max(1_000).optional(),
});

/** `search_files`: regex search over text files below a directory, as file:line:text. */
export const searchFilesTool = defineTool({
  name: 'search_files',
  description:
    'Search file contents; matches come as file:line:text. Skips node_modules, .git, binary and very large files.',
  input,
  parallel: { paths: (args) => [{ path: args.path ?? '.', write: false }] },
  toolsets: ['file', 'search'],
  progress: { emoji: '🔎', arg: 'pattern', style: 'quoted' },
  handler: async (args, ctx) => {
    const shownRoot = args.path ?? '.';
    const root = resolveInWorkspace({ workspace: ctx.workspace, path: shownRoot, confine: ctx.confineToWorkspace });
    const pattern = compileLinearPattern({ pattern: args.pattern, ignoreCase: args.ignore_case === true });
    const filter = args.glob ? globToRegExp({ glob: args.glob }) : undefined;
    const max = args.max_results ?? DEFAULT_MAX_RESULTS;
    const stat = await statOrExplain({ abs: root, shown: shownRoot });
    const scan = new LineScan({ pattern, max, clock: ctx.clock, signal: ctx.signal });
    const files = stat.isDirectory() ? walk({ dir: root, signal: ctx.signal }) : single(root);
    for await (const file of files) {
      ctx.signal.throwIfAborted();
      const rel = path.relative(root, file).split(path.sep).join('/');
      if (filter && stat.isDirectory() && !filter.test(rel)) continue;
      const shown = isWithin({ root: ctx.workspace, child: file }) ? path.relative(ctx.workspace, file) : file;
      const text = await readSearchable({ file });
      if (text !== undefined && !(await scan.searchText({ text, shown }))) break;
    }
    const notes = scan.notes();
    if (scan.matches.length === 0) {
      const where = `${shownRoot}${args.glob ? ` (files matching ${args.glob})` : ''}`;
      return [`No matches for /${args.pattern}/ in ${where}.`, ...notes].join('\n');
    }
    return [...scan.matches, ...notes].join('\n');
  },
});

/** A file's text, or undefined for files that are unreadable, binary or larger than MAX_FILE_BYTES. */
async function readSearchable(params: { file: string }): Promise<string | undefined> {
  const stat = await fs.promises.stat(params.file).catch(() => undefined);
  if (!stat || stat.size > MAX_FILE_BYTES) return undefined;
  const buffer = await fs.promises.readFile(params.file).catch(() => undefined);
  if (!buffer || buffer.subarray(0, 8_192).includes(0)) return undefined;
  return buffer.toString('utf8');
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
