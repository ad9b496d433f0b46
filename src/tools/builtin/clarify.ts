import { z } from 'zod';
import { defineTool } from '../tool.js';
import { ToolError } from '../../core/errors.js';

/** Most choices one question may offer (Hermes Agent's limit; the owner can always answer in their own words). */
export const MAX_CLARIFY_CHOICES = 4;

const input = z.object({
  question: z.string().trim().min(1, 'the question is empty; ask something the owner can answer').describe('The user sees only it and the choices.'),
  choices: z
    .array(z.string().trim().min(1, 'a choice is empty'))
    .max(MAX_CLARIFY_CHOICES, `at most ${MAX_CLARIFY_CHOICES} choices; offer the likeliest ones (the owner can always answer in their own words)`)
    .optional(),
});

/** `clarify`: Hermes Agent's tool (same name and arguments): asks the owner a question in the chat and waits for the answer. */
export const clarifyTool = defineTool({
  name: 'clarify',
  toolsets: ['clarify'],
  description:
    'Ask the user and wait for the answer, only when you cannot go on well without it, never for what you can find ' +
    'out. No answer: go on with the most reasonable choice and say what you assumed.',
  input,
  parallel: 'never',
  childBlocked: true,
  codeCallable: false,
  progress: { emoji: '❓' },
  handler: async (args, ctx) => {
    if (ctx.clarify === undefined) {
      throw new ToolError('clarify is not available here: nobody can be asked in this turn (a scheduled job, heartbeat or check, or a sub-agent). Decide yourself and say what you assumed.');
    }
    const choices = [...new Set(args.choices ?? [])];
    const answer = await ctx.clarify.ask({ question: args.question, ...(choices.length > 0 ? { choices } : {}), signal: ctx.signal });
    if (answer.answered) return answer.answer;
    return `No answer: ${answer.reason}. Go on without it (make the most reasonable choice and say what you assumed), or ask again later.`;
  },
});
