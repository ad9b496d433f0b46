import { z } from 'zod';
import { defineTool } from '../tool.js';
import { ToolError } from '../../core/errors.js';

const input = z.object({
  action: z.enum(['add', 'replace', 'remove']).describe('add a new entry, replace one, or remove one.'),
  target: z.enum(['memory', 'user']).describe('"memory" for your own notes, "user" for what you know about the user.'),
  content: z.string().optional().describe('The entry text. Required for add and replace.'),
  old_text: z
    .string()
    .optional()
    .describe('Required for replace and remove: a short substring of the entry to change; it must occur in exactly one entry.'),
});

/** `memory`: Hermes Agent's tool (same name and arguments) over the profile's MEMORY.md and USER.md. */
export const memoryTool = defineTool({
  name: 'memory',
  description:
    'Save durable facts that survive across sessions. Memory goes into the system prompt of every future session, ' +
    'so keep each entry short, specific and high-signal, and keep the files under their character limits.\n' +
    'target "user": who the user is — name, role, preferences, corrections, communication style.\n' +
    'target "memory": your own notes — environment facts, project conventions, tool quirks, lessons learned.\n' +
    'Save proactively when the user states a preference or corrects you, or you learn a stable fact. Skip trivia, ' +
    'task progress, temporary state and anything easy to rediscover (session_search finds past conversations).\n' +
    'replace/remove pick the entry by old_text, a substring of exactly one entry. When a file is full the add is ' +
    'refused with the current entries: merge or drop entries (replace/remove), then add again. ' +
    'A saved write shows in the system prompt from the next session on, not in this one.',
  input,
  parallel: 'never',
  offeredWith: 'memory',
  childBlocked: true,
  codeCallable: false,
  review: true,
  progress: { emoji: '🧠', arg: 'action', style: 'colon' },
  handler: async (args, ctx) => {
    if (ctx.memory === undefined) throw new ToolError('memory is off for this agent (memory.memory_enabled and memory.user_profile_enabled are false); nothing was saved.');
    return ctx.memory.write({
      action: args.action,
      target: args.target,
      ...(args.content !== undefined ? { content: args.content } : {}),
      ...(args.old_text !== undefined ? { oldText: args.old_text } : {}),
      signal: ctx.signal,
    });
  },
});
