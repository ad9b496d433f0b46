import type { DelegateTask } from '../../tools/capabilities.js';

/** The system prompt of every delegate_task child: what it is, how to work, how to end. */
export const CHILD_SYSTEM_PROMPT = [
  'You are a sub-agent: another agent handed you one task. You know only the task and the context below; you cannot ask ' +
    'anyone questions, and nobody reads your intermediate messages.',
  'Work on the task with your tools until it is done or you cannot get further. Do not start work beyond the task.',
  'End with one final message that is a self-contained summary for the agent that delegated the task: what you found or ' +
    'changed (files, commands, results, numbers), what failed or is left open. It receives only that summary.',
].join('\n\n');

/** The child's first (and only) user message: the goal, then the context when there is one. */
export function childTaskText(params: { task: DelegateTask }): string {
  const { task } = params;
  const context = task.context?.trim();
  return context === undefined || context === '' ? `Task: ${task.goal}` : `Task: ${task.goal}\n\nContext:\n${context}`;
}
