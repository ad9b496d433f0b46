import { z } from 'zod';
import { defineTool } from '../tool.js';
import { ToolError } from '../../core/errors.js';

const input = z.object({
  category: z.string().optional(),
});

/** `skills_list`: Hermes Agent's tool: every skill of the profile (name, category, description). */
export const skillsListTool = defineTool({
  name: 'skills_list',
  description:
    'List your skills when the index in the prompt is not enough.',
  input,
  parallel: 'safe',
  offeredWith: 'skills',
  toolsets: ['skills'],
  review: true,
  progress: { emoji: '📚' },
  handler: async (args, ctx) => {
    if (ctx.skills === undefined) throw new ToolError('skills are not available to this agent (no skills folder).');
    return ctx.skills.list({ ...(args.category !== undefined ? { category: args.category } : {}), signal: ctx.signal });
  },
});
