import fs from 'node:fs';
import { z } from 'zod';
import { resolveInWorkspace } from '../paths.js';
import { defineTool } from '../tool.js';
import { ToolError } from '../../core/errors.js';
import { explainFsError } from './fs-errors.js';

const input = z.object({
  path: z.string().min(1),
  old_string: z.string().min(1),
  new_string: z.string(),
});

/** `patch`: replaces one exact, unique occurrence of a string in a file. */
export const patchTool = defineTool({
  name: 'patch',
  description:
    'Replace old_string with new_string in a file; old_string must match exactly (whitespace too) and only once ' +
    '(add surrounding lines).',
  input,
  parallel: { paths: (args) => [{ path: args.path, write: true }] },
  toolsets: ['file'],
  progress: { emoji: '✍', arg: 'path' },
  handler: async (args, ctx) => {
    const abs = resolveInWorkspace({ workspace: ctx.workspace, path: args.path, confine: ctx.confineToWorkspace });
    let text: string;
    try {
      text = await fs.promises.readFile(abs, { encoding: 'utf8', signal: ctx.signal });
    } catch (error) {
      throw explainFsError({ error, shown: args.path });
    }
    const count = countOccurrences({ text, needle: args.old_string });
    if (count === 0) {
      throw new ToolError(
        `old_string was not found in ${args.path}. Read the file again and copy the exact text, including whitespace.`,
      );
    }
    if (count > 1) {
      throw new ToolError(
        `old_string occurs ${count} times in ${args.path}; it must occur exactly once. ` +
          'Include more surrounding lines so it matches only the place you mean.',
      );
    }
    const at = text.indexOf(args.old_string);
    const updated = text.slice(0, at) + args.new_string + text.slice(at + args.old_string.length);
    // The workspace as it was, for /rollback (once per directory per turn).
    await ctx.checkpoints?.before({ path: abs, reason: `patch ${args.path}` });
    // No abort signal here: a half-written file is worse than finishing a write that has started.
    await fs.promises.writeFile(abs, updated, 'utf8');
    const line = text.slice(0, at).split('\n').length;
    return `Patched ${args.path}: replaced 1 occurrence starting at line ${line}.`;
  },
});

/** Occurrences of `needle` in `text`, overlapping ones included (each is a distinct place it could match). */
export function countOccurrences(params: { text: string; needle: string }): number {
  const { text, needle } = params;
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) count += 1;
  return count;
}
