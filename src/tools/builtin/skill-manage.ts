import { z } from 'zod';
import { defineTool } from '../tool.js';
import { ToolError } from '../../core/errors.js';

const input = z.object({
  action: z.enum(['create', 'patch', 'edit', 'delete', 'write_file', 'remove_file']),
  name: z.string().describe('Lowercase letters, digits, hyphens.'),
  category: z.string().optional(),
  content: z.string().optional().describe('create, edit: the whole SKILL.md (front matter with name and description, then the steps).'),
  old_string: z.string().optional().describe('patch: unique text to replace with new_string.'),
  new_string: z.string().optional(),
  file_path: z.string().optional().describe('patch (default SKILL.md), write_file, remove_file: under references/, templates/, scripts/ or assets/.'),
  file_content: z.string().optional(),
});

/** `skill_manage`: Hermes Agent's tool: create and change the profile's skills (validated, threat-scanned, atomic). */
export const skillManageTool = defineTool({
  name: 'skill_manage',
  description:
    'Create and change your skills (one SKILL.md each; prefer patch over edit). Keep SKILL.md short; long material ' +
    'goes to references/ (write_file).',
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
