import { z } from 'zod';
import { defineTool, ToolError } from '../tool.js';

const input = z.object({
  action: z
    .enum(['create', 'patch', 'edit', 'delete', 'write_file', 'remove_file'])
    .describe('create a skill; patch (preferred) a targeted change; edit rewrites SKILL.md; delete it; write_file / remove_file a supporting file.'),
  name: z.string().describe('The skill: lowercase letters, digits and hyphens, at most 64 characters (e.g. "deploy-staging").'),
  category: z.string().optional().describe('create only: a folder to group it under (same rules as the name, e.g. "devops").'),
  content: z
    .string()
    .optional()
    .describe('create, edit: the whole SKILL.md: YAML front matter between "---" lines with name (= the skill name) and description (one line: what it does and when to use it), then the Markdown instructions.'),
  old_string: z.string().optional().describe('patch: text that occurs exactly once in the file (include enough context to make it unique).'),
  new_string: z.string().optional().describe('patch: the text that replaces old_string ("" deletes it).'),
  file_path: z
    .string()
    .optional()
    .describe('patch (default SKILL.md), write_file, remove_file: a file under references/, templates/, scripts/ or assets/ of the skill.'),
  file_content: z.string().optional().describe('write_file: the text of the file.'),
});

/** `skill_manage`: Hermes Agent's tool: create and change the profile's skills (validated, threat-scanned, atomic). */
export const skillManageTool = defineTool({
  name: 'skill_manage',
  description:
    'Save and maintain skills: your procedural memory for recurring tasks, one SKILL.md each. ' +
    'Create one after a non-trivial task that needed trial and error, a change of plan or a correction from the user, ' +
    'so the next time starts from what worked; not for one-off tasks or facts (those go to memory). ' +
    'When a skill you followed was wrong, incomplete or outdated, fix it at once: prefer patch (old_string must occur exactly once) over edit. ' +
    'Keep SKILL.md short and actionable (steps, commands, pitfalls); put long material in references/ with write_file. ' +
    'Every write is checked (name, front matter, size, a security scan) and refused with the reason. ' +
    'A new skill shows in the skills index from the next session on.',
  input,
  parallel: 'never',
  handler: async (args, ctx) => {
    if (ctx.skills === undefined) throw new ToolError('skills are not available to this agent (no skills folder); nothing was saved.');
    return ctx.skills.manage({
      action: args.action,
      name: args.name,
      ...(args.category !== undefined ? { category: args.category } : {}),
      ...(args.content !== undefined ? { content: args.content } : {}),
      ...(args.old_string !== undefined ? { oldString: args.old_string } : {}),
      ...(args.new_string !== undefined ? { newString: args.new_string } : {}),
      ...(args.file_path !== undefined ? { filePath: args.file_path } : {}),
      ...(args.file_content !== undefined ? { fileContent: args.file_content } : {}),
      ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}),
      signal: ctx.signal,
    });
  },
});
