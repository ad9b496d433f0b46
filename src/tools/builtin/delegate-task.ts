import { z } from 'zod';
import type { DelegateOutcome, DelegateTask } from '../capabilities.js';
import { defineTool, ToolError } from '../tool.js';

/** Most sub-tasks one call may hand out. */
export const MAX_DELEGATE_TASKS = 10;

/** Longest goal repeated in a task's header of the result. */
const MAX_GOAL_ECHO = 120;

const toolsets = z
  .array(z.string().min(1))
  .optional()
  .describe('Tool groups the sub-agent gets: file, terminal, search, skills, cronjob (default: all it may have).');

const task = z.object({
  goal: z.string().min(1).describe('What the sub-agent must do, stated completely: it sees none of this conversation.'),
  context: z.string().optional().describe('Facts it needs: paths, constraints, what was already tried.'),
  toolsets,
});

const input = z.object({
  goal: z.string().min(1).optional().describe('One sub-task (or use tasks).'),
  context: z.string().optional().describe('Facts the sub-agent needs for goal.'),
  toolsets,
  tasks: z.array(task).optional().describe(`Several independent sub-tasks, run in parallel (at most ${MAX_DELEGATE_TASKS}).`),
});

/** `delegate_task`: Hermes Agent's tool (same name and arguments) handing sub-tasks to child agents with a clean context. */
export const delegateTaskTool = defineTool({
  name: 'delegate_task',
  description:
    'Hand a self-contained sub-task to a sub-agent with a fresh context and its own tools; several tasks run in parallel. ' +
    'You get back only each sub-agent\'s final summary, not its tool calls, so use it for work whose details you do not ' +
    'need here (research across many files, independent changes). The sub-agent knows only goal and context. ' +
    'Sub-agents cannot delegate, ask the user, send messages, write memory or run execute_code.',
  input,
  parallel: 'safe',
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
    return args.tasks.map((t) => taskOf(t));
  }
  if (args.goal === undefined) throw new ToolError('delegate_task needs goal (one task) or tasks (several).');
  return [taskOf({ goal: args.goal, context: args.context, toolsets: args.toolsets })];
}

function taskOf(params: { goal: string; context?: string | undefined; toolsets?: string[] | undefined }): DelegateTask {
  return {
    goal: params.goal,
    ...(params.context !== undefined && params.context.trim() !== '' ? { context: params.context } : {}),
    ...(params.toolsets !== undefined ? { toolsets: params.toolsets } : {}),
  };
}

/** The text the model gets: per task a header (task n/N and how it ended), an error line when it did not finish, and its summary. */
export function outcomesText(params: { outcomes: readonly DelegateOutcome[] }): string {
  const { outcomes } = params;
  const total = outcomes.length;
  return outcomes
    .map((outcome, i) => {
      const goal = oneLine({ text: outcome.goal, max: MAX_GOAL_ECHO });
      const lines = [`## Task ${i + 1}/${total}: ${outcome.status} (${goal})`];
      if (outcome.error !== undefined) lines.push(`Error: ${outcome.error}`);
      const summary = outcome.summary.trim();
      lines.push(summary === '' ? '(no summary)' : summary);
      return lines.join('\n');
    })
    .join('\n\n');
}

function oneLine(params: { text: string; max: number }): string {
  const flat = params.text.replace(/\s+/g, ' ').trim();
  return flat.length <= params.max ? flat : `${flat.slice(0, params.max - 1)}…`;
}
