import { createHash } from 'node:crypto';
import type { InboxRow, Store } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import type { ChatRef, MessageEvent } from '../../core/adapter.js';
import { escapePart } from '../../core/session-key.js';

/**
 * The journal key of one `send_message` send: the turn (its inbox row, the same on every replay of it) and the call
 * (the chat and the message), so a replay that makes the same call finds the earlier send instead of making another.
 */
export function sendMessageId(params: { turnInboxId: number; key: string; message: string }): string {
  const digest = createHash('sha256').update(`${params.key}\n${params.message}`).digest('hex').slice(0, 32);
  return `send:${params.turnInboxId}:${digest}`;
}

/** The inbox row journaling one send, and what an earlier attempt of the same call already got onto the platform. */
export interface SendJournal {
  readonly inboxId: number;
  /** The row existed: this turn made this call before (earlier in the turn, or before a restart). */
  readonly earlier: boolean;
  /** Platform message ids recorded for it before this attempt. */
  readonly sentBefore: ReadonlySet<string>;
}

/**
 * The inbox row that journals a `send_message` send (made on first use, already done: never replayed as a turn). Its
 * outbox rows and send intents are the parts sent, like a reply's, so a replay sends only what is missing. The row holds
 * no message text (only which turn sent it); its sender is the gateway itself (a bot), never a chat's person.
 */
export function sendJournal(params: { store: Store; clock: Clock; profile: string; turn: InboxRow; key: string; platform: string; chat: ChatRef; message: string }): SendJournal {
  const { store, turn, platform, chat } = params;
  const messageId = sendMessageId({ turnInboxId: turn.id, key: params.key, message: params.message });
  const event: MessageEvent = {
    platform,
    messageId,
    chat,
    sender: { id: 'hermes:send_message', name: 'send_message', isBot: true },
    text: `send_message of turn ${turn.id}`,
    media: [],
    mentioned: true,
    receivedAt: params.clock.now(),
  };
  const sessionKey = [params.profile, platform, chat.id, ...(chat.threadId === undefined ? [] : [`thread=${chat.threadId}`]), `send=${turn.id}`].map(escapePart).join(':');
  const { inserted, row } = store.recordInbound({ event, sessionKey, done: true });
  const sentBefore = new Set(inserted ? [] : store.outboundFor({ inboxId: row.id }).map((o) => o.platformMessageId));
  return { inboxId: row.id, earlier: !inserted, sentBefore };
}

/**
 * The newest of the bot's message ids the outbox knows in a chat (any turn), compared by their last all-digit part
 * (Telegram's sequential message ids, Discord's snowflakes); undefined when none has one. A send's intent records it,
 * so a platform that finds interrupted sends by position (Telegram) looks right after it.
 */
export function newestKnownId(params: { store: Store; platform: string; chatId: string }): string | undefined {
  let best: { id: string; n: bigint } | undefined;
  for (const id of params.store.outboundIdsInChat({ platform: params.platform, chatId: params.chatId })) {
    const part = id.split(':').filter((p) => /^\d+$/.test(p)).at(-1);
    if (part === undefined) continue;
    const n = BigInt(part);
    if (best === undefined || n > best.n) best = { id, n };
  }
  return best?.id;
}
