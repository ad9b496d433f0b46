import { z } from 'zod';
import { defineTool, ToolError } from '../tool.js';

const input = z.object({
  name: z.string().describe('The skill to load (its name, as the skills index or skills_list shows it).'),
  file_path: z
    .string()
    .optional()
    .describe("One file of the skill's folder to read instead of SKILL.md, relative to it (e.g. references/api.md), as listed after the skill's body."),
});

/** `skill_view`: Hermes Agent's tool: a skill's instructions, or one file of its folder (path-confined to it). */
export const skillViewTool = defineTool({
  name: 'skill_view',
  description:
    "Load a skill: its full instructions (SKILL.md without the front matter), followed by the list of its supporting files. " +
    'Do this before a task a skill in the index matches, and follow it. With file_path, read one of those files instead ' +
    "(paths stay inside the skill's folder).",
  input,
  parallel: 'safe',
  handler: async (args, ctx) => {
    if (ctx.skills === undefined) throw new ToolError('skills are not available to this agent (no skills folder).');
    return ctx.skills.view({ name: args.name, ...(args.file_path !== undefined ? { filePath: args.file_path } : {}), signal: ctx.signal });
  },
});
