import { z } from 'zod';
import { defineTool } from '../tool.js';
import { ToolError } from '../../core/errors.js';

const input = z.object({
  action: z.enum(['add', 'replace', 'remove']),
  target: z.enum(['memory', 'user']),
  content: z.string().optional().describe('add, replace: the entry text.'),
  old_text: z.string().optional().describe('replace, remove: a short substring of exactly one entry.'),
});

/** `memory`: Hermes Agent's tool (same name and arguments) over the profile's MEMORY.md and USER.md. */
export const memoryTool = defineTool({
  name: 'memory',
  toolsets: ['memory'],
  description:
    'Persistent memory, shown in the system prompt of later sessions (not this one); keep entries short. ' +
    // A full file's refusal says how to make room (merge with replace, drop with remove): not repeated here.
    "target 'user': who the user is and what they prefer; 'memory': your own notes (environment, conventions, lessons).",
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
