import fs from 'node:fs';
import readline from 'node:readline';
import { z } from 'zod';
import { resolveInWorkspace } from '../paths.js';
import { defineTool } from '../tool.js';
import { ToolError } from '../../core/errors.js';
import { statOrExplain } from './fs-errors.js';

/** Lines returned when the model gives no limit. */
const DEFAULT_LIMIT = 2_000;
/** Longest line shown in full; longer lines are cut with a note. */
const MAX_LINE_CHARS = 2_000;
/** Most characters of numbered output returned in one call. */
const MAX_OUTPUT_CHARS = 60_000;
/** Bytes inspected to tell text from binary. */
const SNIFF_BYTES = 8_192;

const input = z.object({
  path: z.string().min(1),
  offset: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).max(DEFAULT_LIMIT).optional(),
});

/** `read_file`: numbered lines of a text file, a window at a time. */
export const readFileTool = defineTool({
  name: 'read_file',
  description:
    'Read a text file as numbered lines; offset (first line) and limit pick a window.',
  input,
  parallel: { paths: (args) => [{ path: args.path, write: false }] },
  toolsets: ['file'],
  progress: { emoji: '📖', arg: 'path' },
  handler: async (args, ctx) => {
    const abs = resolveInWorkspace({ workspace: ctx.workspace, path: args.path, confine: ctx.confineToWorkspace });
    const stat = await statOrExplain({ abs, shown: args.path });
    if (stat.isDirectory()) throw new ToolError(`${args.path} is a directory; use search_files to list or search it.`);
    if (!stat.isFile()) throw new ToolError(`${args.path} is not a regular file (a device, socket or pipe).`);
    if (await looksBinary(abs)) throw new ToolError(`${args.path} looks like a binary file; read_file only shows text.`);
    const offset = args.offset ?? 1;
    const limit = args.limit ?? DEFAULT_LIMIT;
    const window = await readWindow({ abs, offset, limit, signal: ctx.signal });
    if (window.total === 0) return `${args.path} is empty.`;
    if (window.lines.length === 0) {
      return `${args.path} has ${window.total} lines; offset ${offset} is past the end.`;
    }
    const last = offset + window.lines.length - 1;
    const body = window.lines.join('\n');
    if (last >= window.total) return body;
    return `${body}\n[Showing lines ${offset}-${last} of ${window.total}. Use offset=${last + 1} to read more.]`;
  },
});

/** The numbered lines in [offset, offset+limit) that fit the output cap, and the file's line count. */
async function readWindow(params: {
  abs: string;
  offset: number;
  limit: number;
  signal: AbortSignal;
}): Promise<{ lines: string[]; total: number }> {
  const stream = fs.createReadStream(params.abs, { encoding: 'utf8', signal: params.signal });
  const reader = readline.createInterface({ input: stream, crlfDelay: Infinity });
  const lines: string[] = [];
  let total = 0;
  let chars = 0;
  let full = false;
  try {
    for await (const line of reader) {
      total += 1;
      if (full || total < params.offset) continue;
      const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} [line cut: ${line.length} chars]` : line;
      const numbered = `${String(total).padStart(6)}\t${shown}`;
      if (lines.length >= params.limit || chars + numbered.length > MAX_OUTPUT_CHARS) {
        full = true;
        continue;
      }
      lines.push(numbered);
      chars += numbered.length + 1;
    }
  } finally {
    reader.close();
    stream.destroy();
  }
  return { lines, total };
}

async function looksBinary(abs: string): Promise<boolean> {
  const handle = await fs.promises.open(abs, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}
