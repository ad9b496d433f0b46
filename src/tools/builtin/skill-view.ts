import { z } from 'zod';
import { defineTool } from '../tool.js';
import { ToolError } from '../../core/errors.js';

const input = z.object({
  name: z.string(),
  file_path: z.string().optional(),
});

/** `skill_view`: Hermes Agent's tool: a skill's instructions, or one file of its folder (path-confined to it). */
export const skillViewTool = defineTool({
  name: 'skill_view',
  description:
    "Load a skill's instructions and file list before a task it matches, then follow them; file_path reads one of " +
    'its files (e.g. references/api.md).',
  input,
  parallel: 'safe',
  offeredWith: 'skills',
  toolsets: ['skills'],
  review: true,
  progress: { emoji: '📚', arg: 'name' },
  handler: async (args, ctx) => {
    if (ctx.skills === undefined) throw new ToolError('skills are not available to this agent (no skills folder).');
    return ctx.skills.view({ name: args.name, ...(args.file_path !== undefined ? { filePath: args.file_path } : {}), signal: ctx.signal });
  },
});
