import type { InboxRow, Store } from '../../store/types.js';
import type { SessionMailbox } from '../intake/mailbox.js';
import { hideExchange, lastExchange, shortQuote } from './exchange.js';

/**
 * /undo: hides the session's last exchange (its last user message and everything after it) from every later request,
 * compression and search; the rows stay in the store, marked hidden by this command's inbox row. Refused while the
 * session answers or has messages waiting (they would answer around the gap).
 */
export function undoReply(params: { store: Store; sessionKey: string; mailbox: SessionMailbox | undefined; row: InboxRow | undefined }): string {
  const { store, mailbox, row } = params;
  if (mailbox?.busy === true) return 'An answer is being written: /stop it first (or wait for it), then /undo.';
  const session = store.activeSession({ key: params.sessionKey });
  const exchange = session === undefined ? undefined : lastExchange({ store, sessionId: session.id });
  if (session === undefined || exchange === undefined || row === undefined) return 'Nothing to undo: this conversation has no exchange left to drop.';
  const hidden = hideExchange({ store, session, exchange, hiddenBy: row.id });
  const answers = hidden - 1;
  const rest = answers > 0 ? ` and what came after it (${answers} message${answers === 1 ? '' : 's'})` : '';
  return `Removed your message “${shortQuote({ text: exchange.from.content })}”${rest} from this conversation.`;
}
