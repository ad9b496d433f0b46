import { z } from 'zod';
import type { DelegateOutcome, DelegateTask } from '../capabilities.js';
import { defineTool } from '../tool.js';
import { ToolError } from '../../core/errors.js';

/** Most sub-tasks one call may hand out. */
export const MAX_DELEGATE_TASKS = 10;

/** Longest goal repeated in a task's header of the result. */
const MAX_GOAL_ECHO = 120;

/**
 * Characters the summaries of one call may take together, shared equally between its tasks: below the registry's cap
 * on a tool result, so that cap (which cuts the middle) never hides a later task's header or error line.
 */
const SUMMARIES_CHARS = 80_000;

const toolsetNames = z.array(z.string());

/** One sub-task inside `tasks` (no descriptions: the top-level fields say what each is). */
const task = z.object({ goal: z.string(), context: z.string().optional(), toolsets: toolsetNames.optional() });

const input = z.object({
  goal: z.string().optional().describe('One sub-task, stated completely (or tasks).'),
  context: z.string().optional(),
  toolsets: toolsetNames.optional().describe('Of file, terminal, search, skills, cronjob (default: all).'),
  tasks: z.array(task).optional().describe(`Up to ${MAX_DELEGATE_TASKS} independent sub-tasks.`),
});

/** `delegate_task`: Hermes Agent's tool (same name and arguments) handing sub-tasks to child agents with a clean context. */
export const delegateTaskTool = defineTool({
  name: 'delegate_task',
  toolsets: ['delegation'],
  description:
    'Hand sub-tasks to sub-agents that run in parallel and know only goal and context; you get back each final summary. ' +
    'They cannot ask the user, send messages, use memory or delegate.',
  input,
  parallel: 'safe',
  childBlocked: true,
  codeCallable: false,
  progress: { emoji: '🤝', arg: 'goal', style: 'colon' },
  handler: async (args, ctx) => {
    if (ctx.delegate === undefined) throw new ToolError('delegate_task is not available here.');
    const tasks = tasksOf({ args });
    const outcomes = await ctx.delegate.run({ tasks, signal: ctx.signal });
    return outcomesText({ outcomes });
  },
});

/** The sub-tasks a call asks for: its `goal` or its `tasks`, never both. Throws ToolError for a call that names neither or too many. */
function tasksOf(params: { args: z.infer<typeof input> }): DelegateTask[] {
  const { args } = params;
  if (args.goal !== undefined && args.tasks !== undefined) throw new ToolError('delegate_task takes either goal (one task) or tasks (several), not both.');
  if (args.tasks !== undefined) {
    if (args.tasks.length === 0) throw new ToolError('delegate_task: tasks is empty; give at least one {goal, context?, toolsets?}.');
    if (args.tasks.length > MAX_DELEGATE_TASKS) {
      throw new ToolError(`delegate_task takes at most ${MAX_DELEGATE_TASKS} tasks per call (got ${args.tasks.length}); merge some or call again for the rest.`);
    }
    const empty = args.tasks.findIndex((t) => t.goal.trim() === '');
    if (empty >= 0) throw new ToolError(`delegate_task: task ${empty + 1} has an empty goal.`);
    return args.tasks.map((t) => taskOf(t));
  }
  if (args.goal === undefined || args.goal.trim() === '') throw new ToolError('delegate_task needs goal (one task) or tasks (several).');
  return [taskOf({ goal: args.goal, context: args.context, toolsets: args.toolsets })];
}

function taskOf(params: { goal: string; context?: string | undefined; toolsets?: string[] | undefined }): DelegateTask {
  return {
    goal: params.goal,
    ...(params.context !== undefined && params.context.trim() !== '' ? { context: params.context } : {}),
    ...(params.toolsets !== undefined ? { toolsets: params.toolsets } : {}),
  };
}

/** The text the model gets: per task a header (task n/N and how it ended), an error line when it did not finish, and its summary (each within an equal share of the result). */
export function outcomesText(params: { outcomes: readonly DelegateOutcome[] }): string {
  const { outcomes } = params;
  const total = outcomes.length;
  const share = Math.floor(SUMMARIES_CHARS / Math.max(1, total));
  return outcomes
    .map((outcome, i) => {
      const goal = oneLine({ text: outcome.goal, max: MAX_GOAL_ECHO });
      const lines = [`## Task ${i + 1}/${total}: ${outcome.status} (${goal})`];
      if (outcome.error !== undefined) lines.push(`Error: ${outcome.error}`);
      const summary = outcome.summary.trim();
      lines.push(summary === '' ? '(no summary)' : capped({ text: summary, max: share }));
      return lines.join('\n');
    })
    .join('\n\n');
}

/** `text` within `max` characters: its beginning and its end, with a note of how much of the middle was cut. */
function capped(params: { text: string; max: number }): string {
  const { text, max } = params;
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n[… ${text.length - 2 * half} characters of this summary cut …]\n${text.slice(text.length - half)}`;
}

function oneLine(params: { text: string; max: number }): string {
  const flat = params.text.replace(/\s+/g, ' ').trim();
  return flat.length <= params.max ? flat : `${flat.slice(0, params.max - 1)}…`;
}
