import { z } from 'zod';
import { defineTool, ToolError } from '../tool.js';

const input = z.object({
  category: z.string().optional().describe('Only the skills of this category (the folder between skills/ and the skill). Omit for all.'),
});

/** `skills_list`: Hermes Agent's tool: every skill of the profile (name, category, description). */
export const skillsListTool = defineTool({
  name: 'skills_list',
  description:
    'List your skills: saved procedures for recurring tasks (name, category, one-line description). ' +
    'The system prompt already shows an index; use this to see all of them or one category. Load one with skill_view.',
  input,
  parallel: 'safe',
  handler: async (args, ctx) => {
    if (ctx.skills === undefined) throw new ToolError('skills are not available to this agent (no skills folder).');
    return ctx.skills.list({ ...(args.category !== undefined ? { category: args.category } : {}), signal: ctx.signal });
  },
});
