import type { ChatRef, MessageEvent } from '../../src/core/adapter.js';
import type { BoundedSet } from '../../src/util/bounded-set.js';
import { mayContinue } from '../kit/burst.js';

/** Slack's text limit for one message (a longer paste is refused or split by the client). */
const textLimit = 40_000;

/** The fields of a Slack message or app_mention event the adapter reads. */
export interface SlackMessageEvent {
  readonly type: string;
  readonly subtype?: string;
  readonly channel?: string;
  readonly channel_type?: string;
  readonly user?: string;
  readonly bot_id?: string;
  readonly text?: string;
  readonly ts?: string;
  readonly thread_ts?: string;
  readonly files?: readonly SlackFile[];
}

/** A file shared with the app. */
export interface SlackFile {
  readonly id: string;
  readonly name?: string;
  readonly mimetype?: string;
  readonly size?: number;
  readonly url_private_download?: string;
  readonly url_private?: string;
}

/** How the adapter treats channels and bots. */
export interface SlackInboundPolicy {
  readonly botUserId: string;
  readonly botId?: string;
  readonly replyInThread: boolean;
  readonly strictMention: boolean;
  readonly allowedBots: readonly string[];
  /** Threads (channel:thread_ts) where the bot was mentioned: they continue without a new mention. */
  readonly threadsWithBot: BoundedSet<string>;
}

/** What one Slack event means to the gateway. */
export type SlackRead =
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'message'; readonly event: Omit<MessageEvent, 'media'>; readonly files: readonly SlackFile[] };

const readableSubtypes = new Set([undefined, 'file_share', 'thread_broadcast']);

/**
 * Turns a Slack `message` or `app_mention` event into a gateway message (files still to download). A mention in a
 * channel arrives as both kinds: they share the message id (channel:ts), so the journal takes it once.
 */
export function readSlackEvent(params: { event: SlackMessageEvent; policy: SlackInboundPolicy; now: number }): SlackRead {
  const { event, policy } = params;
  if (event.type !== 'message' && event.type !== 'app_mention') return { kind: 'skip', reason: `event ${event.type}` };
  if (!readableSubtypes.has(event.subtype)) return { kind: 'skip', reason: `subtype ${event.subtype ?? ''}` };
  if (event.channel === undefined || event.ts === undefined) return { kind: 'skip', reason: 'no channel or ts' };
  if (event.user === policy.botUserId || (event.bot_id !== undefined && event.bot_id === policy.botId)) return { kind: 'skip', reason: 'own message' };
  const isBot = event.bot_id !== undefined;
  if (isBot && !policy.allowedBots.includes(event.bot_id ?? '')) return { kind: 'skip', reason: 'message from a bot' };
  const sender = event.user ?? event.bot_id;
  if (sender === undefined) return { kind: 'skip', reason: 'no sender' };
  const dm = event.channel_type === 'im';
  const raw = event.text ?? '';
  const mention = `<@${policy.botUserId}>`;
  const mentioned = raw.includes(mention);
  const threadRoot = event.thread_ts ?? event.ts;
  const threadKey = `${event.channel}:${threadRoot}`;
  if (!dm) {
    const continuing = event.thread_ts !== undefined && policy.threadsWithBot.has(threadKey) && !policy.strictMention;
    if (!mentioned && !continuing) return { kind: 'skip', reason: 'channel message not addressed to the app' };
    policy.threadsWithBot.add(threadKey);
  }
  const text = raw.split(mention).join('').replace(/[ \t]{2,}/g, ' ').trim();
  const files = event.files ?? [];
  if (text === '' && files.length === 0) return { kind: 'skip', reason: 'nothing the agent can read' };
  // A thread is its own conversation. Channel messages are answered in a thread under them (reply_in_thread);
  // a DM is answered in the DM, in a thread only when the user wrote in one.
  const threadId = event.thread_ts ?? (!dm && policy.replyInThread ? event.ts : undefined);
  const chat: ChatRef = { id: event.channel, kind: dm ? 'dm' : 'channel', ...(threadId !== undefined ? { threadId } : {}) };
  return {
    kind: 'message',
    files,
    event: {
      platform: 'slack',
      messageId: `${event.channel}:${event.ts}`,
      chat,
      sender: { id: sender, isBot },
      text,
      ...(event.thread_ts !== undefined && event.thread_ts !== event.ts ? { replyToId: `${event.channel}:${event.thread_ts}` } : {}),
      mentioned: dm || mentioned,
      receivedAt: params.now,
      // A text near the limit may be one part of a split paste: the gateway waits its merge window for the rest.
      continues: mayContinue({ text: raw, limit: textLimit }),
    },
  };
}
