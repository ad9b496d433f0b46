import type { Logger } from 'pino';
import type { Store, InboxRow } from '../store/types.js';
import type { Clock } from '../util/clock.js';
import type { AIAgent } from '../agent/agent.js';
import { windowHistory } from '../agent/history-window.js';
import type { ToolContext } from '../tools/tool.js';
import type { PlatformAdapter } from './contracts.js';
import type { ChatPacer } from './delivery/pacer.js';
import { StreamDelivery } from './delivery/stream.js';
import { toChatHistory, toStoredMessage } from './history.js';
import { chatKeyFor } from './session-key.js';
import { abortKindOf } from './turn-abort.js';
import { startTyping } from './typing.js';
import { titleFor, userTextFor } from './user-text.js';

/** Everything a turn needs besides its message. */
export interface TurnDeps {
  readonly store: Store;
  readonly agent: AIAgent;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly adapter: PlatformAdapter;
  readonly pacer: ChatPacer;
  readonly cursor: string;
  readonly typingIntervalMs: number;
  /** Tool context without the per-turn signal. */
  readonly toolContext: Omit<ToolContext, 'signal'>;
  /** Turns started on one message before it is given up (a message that keeps crashing the gateway). */
  readonly maxAttempts: number;
  /** Most characters of earlier conversation sent to the model. */
  readonly historyMaxChars: number;
}

/** What the user is told about a message that kept crashing the gateway. */
function giveUpNote(params: { attempts: number }): string {
  return (
    `Sorry, I could not answer this message: the gateway stopped ${params.attempts} times while working on it. ` +
    'Send it again (perhaps shorter) if it still matters; the gateway log has the details.'
  );
}

/**
 * Runs one turn: the agent answers one inbound message, the reply streams to the platform, and the
 * journal records every sent message so a crash mid-stream is finished in place on replay.
 */
export async function runTurn(params: { row: InboxRow; signal: AbortSignal; deps: TurnDeps }): Promise<void> {
  const { row, signal, deps } = params;
  const { store, adapter } = deps;
  const event = row.event;
  const logger = deps.logger.child({ inboxId: row.id, platform: event.platform, chatId: event.chat.id });
  const giveUp = row.attempts >= deps.maxAttempts;
  if (!giveUp) store.setInboxState({ inboxId: row.id, state: 'processing' });

  const title = titleFor({ text: event.text });
  const session = store.activeSession({ key: row.sessionKey }) ?? store.createSession({ key: row.sessionKey, title });
  if (session.title === null && title !== null) store.setSessionTitle({ sessionId: session.id, title });
  const removed = store.deleteTurnMessages({ inboxId: row.id });
  const existing = store.outboundFor({ inboxId: row.id });
  if (removed > 0 || existing.length > 0) {
    logger.info({ removedMessages: removed, adoptedMessages: existing.length }, 'resuming a turn a restart cut short');
  }
  const delivery = new StreamDelivery({
    adapter,
    chat: event.chat,
    replyToId: event.messageId,
    pacer: deps.pacer,
    chatKey: chatKeyFor({ platform: event.platform, chatId: event.chat.id }),
    clock: deps.clock,
    cursor: deps.cursor,
    logger,
    existing: existing.map((o) => ({ seq: o.seq, platformMessageId: o.platformMessageId, text: o.text })),
    journal: {
      record: (r) =>
        store.recordOutbound({ inboxId: row.id, platform: event.platform, chatId: event.chat.id, ...r }),
    },
  });
  if (giveUp) {
    logger.error({ attempts: row.attempts }, 'giving up on a message that was cut short too many times');
    await delivery.finish({ note: giveUpNote({ attempts: row.attempts }) });
    store.completeTurn({ inboxId: row.id });
    return;
  }
  const history = windowHistory({ messages: toChatHistory({ messages: store.history({ sessionId: session.id }) }), maxChars: deps.historyMaxChars });
  const typing = startTyping({ adapter, chat: event.chat, intervalMs: deps.typingIntervalMs, clock: deps.clock, logger });
  let note: string | undefined;
  let text = '';
  try {
    const result = await deps.agent.run({
      history,
      userText: userTextFor({ event }),
      signal,
      onTextDelta: (delta) => delivery.push(delta),
      onMessage: (message) => store.appendMessage(toStoredMessage({ message, sessionId: session.id, inboxId: row.id })),
      toolContext: { ...deps.toolContext, signal },
    });
    text = result.text;
    note = result.note;
    logger.info({ outcome: result.outcome, modelCalls: result.modelCalls }, 'turn finished');
  } catch (error) {
    logger.error({ err: error }, 'agent failed unexpectedly');
    note = 'Something went wrong while answering; the details are in the gateway log. Please try again.';
  } finally {
    typing.stop();
  }

  const abortKind = abortKindOf(signal);
  if (abortKind === 'shutdown') {
    // Leave the turn open: the next start replays it and finishes the shown message in place.
    await delivery.halt();
    logger.info('turn left open for replay after shutdown');
    return;
  }
  if (abortKind !== undefined && text.trim() !== '') note = '(stopped)';
  const delivered = await delivery.finish(note !== undefined ? { note } : {});
  if (delivered.errors.length > 0) logger.warn({ errors: delivered.errors }, 'reply delivered with errors');
  store.completeTurn({ inboxId: row.id });
}
