import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import type { InterruptedSend } from '../../src/core/adapter.js';
import { replyEventType, translateSlackError } from './outbound.js';

/** How far before the journaled time of the send the search starts (clock skew between host and Slack). */
const SKEW_MS = 60_000;

/** Messages read: the reply is among the newest of its channel or thread. */
const LIMIT = 100;

/** Slack error codes that mean the history cannot be read here (scope, membership): the search cannot tell. */
const cannotRead = new Set(['missing_scope', 'not_in_channel', 'channel_not_found', 'thread_not_found', 'not_allowed_token_type']);

/** The nonce in a message's hermes_reply metadata, if it has one. */
function nonceOf(message: { metadata?: { event_type?: string; event_payload?: Record<string, unknown> } }): unknown {
  return message.metadata?.event_type === replyEventType ? message.metadata.event_payload?.['nonce'] : undefined;
}

/**
 * Finds the message an interrupted chat.postMessage created: the gateway posts with metadata carrying the send's
 * nonce, so the channel's (or thread's) recent history, read with include_all_metadata, shows whether it exists.
 * Undefined when it does not, or when the history cannot be read (one log line): the caller posts anew.
 */
export async function findSentSlack(params: { client: WebClient; send: InterruptedSend; logger: Logger }): Promise<{ messageId: string } | undefined> {
  const { client, send, logger } = params;
  const oldest = ((send.sentAt - SKEW_MS) / 1000).toFixed(6);
  const threadTs = send.chat.threadId;
  let messages: readonly { ts?: string; metadata?: { event_type?: string; event_payload?: Record<string, unknown> } }[];
  try {
    const page = threadTs !== undefined
      ? await client.conversations.replies({ channel: send.chat.id, ts: threadTs, oldest, limit: LIMIT, include_all_metadata: true })
      : await client.conversations.history({ channel: send.chat.id, oldest, limit: LIMIT, include_all_metadata: true });
    messages = (page.messages ?? []);
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'data' in error ? (error.data as { error?: string }).error : undefined;
    if (code !== undefined && cannotRead.has(code)) {
      logger.warn({ code }, 'cannot read the conversation to find an interrupted send');
      return undefined;
    }
    throw translateSlackError({ error, method: threadTs !== undefined ? 'conversations.replies' : 'conversations.history' });
  }
  const found = messages.find((m) => m.ts !== undefined && nonceOf(m) === send.nonce && !send.exclude.has(m.ts));
  return found?.ts !== undefined ? { messageId: found.ts } : undefined;
}
