import { z } from 'zod';
import { defineTool } from '../tool.js';
import { ToolError } from '../../core/errors.js';

const input = z.object({
  action: z.enum(['create', 'patch', 'edit', 'delete', 'write_file', 'remove_file']),
  name: z.string().describe('Skill name: lowercase letters, digits, hyphens (e.g. "deploy-staging").'),
  category: z.string().optional().describe('create: optional folder to group it under (e.g. "devops").'),
  content: z.string().optional().describe('create, edit: the whole SKILL.md: YAML front matter (name, description) between "---" lines, then the instructions.'),
  old_string: z.string().optional().describe('patch: text that occurs exactly once in the file.'),
  new_string: z.string().optional().describe('patch: its replacement ("" deletes it).'),
  file_path: z.string().optional().describe('patch (default SKILL.md), write_file, remove_file: a path under references/, templates/, scripts/ or assets/.'),
  file_content: z.string().optional().describe('write_file: the file\'s text.'),
});

/** `skill_manage`: Hermes Agent's tool: create and change the profile's skills (validated, threat-scanned, atomic). */
export const skillManageTool = defineTool({
  name: 'skill_manage',
  description:
    'Save and maintain skills, your procedures for recurring tasks (one SKILL.md each). Create one after a non-trivial task ' +
    'that needed trial and error, a change of plan or a correction from the user; not for one-off tasks or facts (use memory). ' +
    'When a skill you followed was wrong or outdated, fix it: prefer patch over edit. Keep SKILL.md short (steps, commands, pitfalls); ' +
    'long material goes to references/ (write_file). Writes are checked (name, front matter, size, security scan). New skills show in the index from the next session.',
  input,
  parallel: 'never',
  offeredWith: 'skills',
  toolsets: ['skills'],
  review: true,
  progress: { emoji: '📚', arg: 'name' },
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
