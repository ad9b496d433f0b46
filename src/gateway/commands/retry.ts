import { parseCommand } from '../../core/commands.js';
import type { InboxRow, SessionRow, Store } from '../../store/types.js';
import type { SessionMailbox } from '../intake/mailbox.js';
import { hideExchange, lastExchange } from './exchange.js';

/** True when the row is a `/retry` (a turn that answers the session's last user message again). */
export function isRetryRow(params: { row: InboxRow }): boolean {
  const command = parseCommand({ text: params.row.event.text });
  return command.kind === 'command' && command.name === 'retry';
}

/**
 * Why a /retry cannot start a turn now, or undefined when it can: an answer is being written or waits (the choice
 * made here: refuse and say so, rather than stop it: /stop then /retry does that), or there is nothing to retry.
 */
export function retryRefusal(params: { store: Store; sessionKey: string; mailbox: SessionMailbox | undefined }): string | undefined {
  if (params.mailbox?.busy === true) return 'An answer is being written: /stop it first (or wait for it), then /retry.';
  const session = params.store.activeSession({ key: params.sessionKey });
  const exchange = session === undefined ? undefined : lastExchange({ store: params.store, sessionId: session.id });
  return exchange === undefined ? 'Nothing to retry: this conversation has no message of yours to answer again.' : undefined;
}

/** The text a /retry turn answers again, or `nothing` when the conversation has no exchange left. */
export type RetryText = { readonly kind: 'retry'; readonly text: string } | { readonly kind: 'nothing' };

/**
 * Sets aside the last exchange for a /retry turn and returns its user text. The exchange is hidden (not deleted) under
 * the retry's inbox id in one statement, so a retry that a crash cut short finds the same text again on replay (its own
 * messages were removed by then) instead of taking back one more exchange.
 */
export function takeRetryText(params: { store: Store; session: SessionRow; row: InboxRow }): RetryText {
  const { store, session, row } = params;
  // Only a replayed row (started before) looks for what it set aside: inbox ids are reused once old rows are pruned.
  const earlier = row.attempts > 0 ? store.hiddenMessages({ hiddenBy: row.id }).find((m) => m.role === 'user') : undefined;
  if (earlier !== undefined) return { kind: 'retry', text: earlier.content };
  const exchange = lastExchange({ store, sessionId: session.id });
  if (exchange === undefined) return { kind: 'nothing' };
  hideExchange({ store, session, exchange, hiddenBy: row.id });
  return { kind: 'retry', text: exchange.from.content };
}
