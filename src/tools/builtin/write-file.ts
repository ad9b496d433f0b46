import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { resolveInWorkspace } from '../paths.js';
import { defineTool } from '../tool.js';
import { explainFsError } from './fs-errors.js';

const input = z.object({
  path: z.string().min(1),
  content: z.string(),
});

/** `write_file`: creates or replaces a whole file, creating missing parent directories. */
export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Create or overwrite a whole file (parent directories are created); to change part of one, use patch.',
  input,
  parallel: { paths: (args) => [{ path: args.path, write: true }] },
  toolsets: ['file'],
  progress: { emoji: '✍', arg: 'path' },
  handler: async (args, ctx) => {
    const abs = resolveInWorkspace({ workspace: ctx.workspace, path: args.path, confine: ctx.confineToWorkspace });
    // The workspace as it was, for /rollback (once per directory per turn).
    await ctx.checkpoints?.before({ path: abs, reason: `write_file ${args.path}` });
    try {
      await fs.promises.mkdir(path.dirname(abs), { recursive: true });
      // No abort signal here: a half-written file is worse than finishing a write that has started.
      await fs.promises.writeFile(abs, args.content, 'utf8');
    } catch (error) {
      throw explainFsError({ error, shown: args.path });
    }
    const bytes = Buffer.byteLength(args.content, 'utf8');
    const lines = args.content === '' ? 0 : args.content.split('\n').length;
    return `Wrote ${bytes} bytes (${lines} lines) to ${args.path}.`;
  },
});
