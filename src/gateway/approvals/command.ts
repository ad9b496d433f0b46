import type { MessageEvent } from '../../core/adapter.js';
import type { ApprovalDesk } from './desk.js';
import type { ApprovalAnswer } from './text.js';

/** `/approve`, `/approve session`, `/approve always`, `/deny`: the reply, after answering the chat's oldest waiting request. */
export function approvalCommandReply(params: { desk: ApprovalDesk | undefined; name: 'approve' | 'deny'; args: string; event: MessageEvent }): string {
  const { desk, name } = params;
  if (desk === undefined) return 'Nothing is waiting for approval.';
  const arg = params.args.trim().toLowerCase();
  let answer: ApprovalAnswer;
  if (name === 'deny') answer = 'deny';
  else if (arg === '' || arg === 'once') answer = 'once';
  else if (arg === 'session' || arg === 'always') answer = arg;
  else return `Unknown answer "${params.args.trim().slice(0, 40)}". Use /approve, /approve session, /approve always or /deny.`;
  return desk.answerCommand({ event: params.event, answer });
}
