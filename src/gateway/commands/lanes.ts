import type { MessageCommand } from './skill-command.js';

/** How a message that becomes a turn enters its mailbox: by the session's busy policy, or as /queue or /steer say. */
export type TurnMode = 'policy' | 'queue' | 'steer';

/**
 * Whether a message becomes a turn, and how it enters the mailbox: plain messages and skills by the busy policy;
 * `/queue <text>` queued and `/steer <text>` steered whatever the policy; `/retry` a turn of its own (refusals are
 * answered on the control lane). Everything else (and /queue or /steer without text) is a control command.
 */
export function turnModeOf(params: { command: MessageCommand }): TurnMode | undefined {
  const { command } = params;
  if (command.kind === 'none' || command.kind === 'skill') return 'policy';
  if (command.kind !== 'command') return undefined;
  // Only started on an idle session (see retry.ts): it never interrupts or steers anything.
  if (command.name === 'retry') return 'queue';
  if ((command.name === 'queue' || command.name === 'steer') && command.args !== '') return command.name;
  return undefined;
}
