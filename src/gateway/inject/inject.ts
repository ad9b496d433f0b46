import type { Store, InboxRow } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import type { SystemOrigin } from '../../core/adapter.js';
import { isSilentAnswer, lastAnswer, systemEvent } from '../../jobs/system-turn.js';
import type { TurnWatch } from './watch.js';
import type { InjectedTurnEnd, InjectParams, InjectResult } from '../../jobs/ports.js';

/** The platform message ids a finished turn's reply got, in order. */
export function turnMessageIds(params: { store: Store; inboxId: number }): string[] {
  return params.store.outboundFor({ inboxId: params.inboxId }).map((row) => row.platformMessageId);
}

/**
 * How a turn found done in the journal ended (a restart came between its end and the scheduler's record of it), from
 * its session: no final answer from the model (it was unreachable, or stopped) is an `error`, so the run follows the
 * model-retry rule as without the crash; a silent answer is `silent`; an answer with message ids is `delivered`.
 */
export function finishedEnd(params: { store: Store; row: InboxRow; origin: SystemOrigin }): InjectedTurnEnd {
  const { store, row } = params;
  const session = store.activeSession({ key: row.sessionKey });
  const messageIds = turnMessageIds({ store, inboxId: row.id });
  const sessionId = session?.id ?? null;
  // A turn completes with message ids only once its reply was delivered.
  if (messageIds.length > 0) return { outcome: 'delivered', sessionId, text: session === undefined ? '' : lastAnswer({ store, sessionId: session.id }), messageIds };
  const own = session === undefined ? [] : store.history({ sessionId: session.id, limit: 200 }).filter((m) => m.inboxId === row.id);
  const last = own.at(-1);
  // Its messages are not there to look at (none stored, or compressed away): nothing was sent, as before.
  if (last === undefined) return { outcome: 'silent', sessionId, text: '', messageIds };
  const answered = last.role === 'assistant' && (last.toolCalls === null || last.toolCalls.length === 0);
  if (!answered) return { outcome: 'error', sessionId, text: '', error: 'the model gave no answer (the turn ended before a restart)', messageIds };
  const text = last.content;
  if (isSilentAnswer({ origin: params.origin, text })) return { outcome: 'silent', sessionId, text, messageIds };
  return { outcome: 'undelivered', sessionId, text, error: 'the answer has no platform message id', messageIds };
}

/**
 * Journals a system-started turn as a synthetic message (system sender, `system` origin, no reply-to) and queues it in
 * its session's mailbox; the sender gate is not asked. A message id journaled before is not queued again: a pending row
 * is being replayed (watched), a done one is reported with the message ids its reply got.
 */
export function injectTurn(params: InjectParams & { store: Store; clock: Clock; watch: TurnWatch; enqueue: (row: InboxRow) => boolean }): InjectResult {
  const { store } = params;
  const event = systemEvent({ platform: params.platform, chat: params.chat, text: params.text, messageId: params.messageId, origin: params.origin, now: params.clock.now() });
  const { inserted, row } = store.recordInbound({ event, sessionKey: params.sessionKey });
  if (!inserted && row.state === 'done') return { kind: 'finished', inboxId: row.id, end: finishedEnd({ store, row, origin: params.origin }) };
  if (inserted) {
    if (store.activeSession({ key: params.sessionKey }) === undefined) store.createSession({ key: params.sessionKey, title: params.title ?? null });
    if (!params.enqueue(row)) return { kind: 'refused', reason: `no ${params.platform} adapter is running` };
  }
  return { kind: 'queued', inboxId: row.id, finished: params.watch.watch({ inboxId: row.id }) };
}
