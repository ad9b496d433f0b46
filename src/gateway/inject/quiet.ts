import type { TurnOrigin } from '../../tools/capabilities.js';
import type { ChatRef, MessageEvent, SystemOrigin } from '../../core/adapter.js';
import { isHeartbeatOk } from '../../jobs/heartbeat-prompt.js';

/** The answer a job's run gives to stay quiet ("only tell me when ..." jobs). */
export const SILENT_TOKEN = '[SILENT]';

/** The heartbeat's "nothing to report" answer. */
export const HEARTBEAT_OK = 'HEARTBEAT_OK';

/**
 * Whether a system turn's answer means "send nothing": empty, exactly `[SILENT]`, or for the heartbeat `HEARTBEAT_OK`
 * as isHeartbeatOk reads it (case, a trailing period, markdown around it: a model's "**HEARTBEAT_OK**." is not sent).
 */
export function isSilentAnswer(params: { origin: SystemOrigin; text: string }): boolean {
  const text = params.text.trim();
  if (text === '' || text === SILENT_TOKEN) return true;
  return params.origin.kind === 'heartbeat' && isHeartbeatOk(text);
}

/** The chat a turn answers, as its tools see it (ToolContext.origin). */
export function turnOriginOf(params: { event: Pick<MessageEvent, 'platform' | 'chat'> }): TurnOrigin {
  const { platform, chat } = params.event;
  return { platform, chatId: chat.id, chatKind: chat.kind, ...(chat.threadId === undefined ? {} : { threadId: chat.threadId }) };
}

/** The synthetic message of a system-started turn: a system sender, no reply-to, the origin set (journaled like any message). */
export function systemEvent(params: { platform: string; chat: ChatRef; text: string; messageId: string; origin: SystemOrigin; now: number }): MessageEvent {
  return {
    platform: params.platform,
    messageId: params.messageId,
    chat: params.chat,
    sender: { id: `system:${params.origin.kind}`, name: 'Hermes scheduler', isBot: true },
    text: params.text,
    media: [],
    mentioned: true,
    receivedAt: params.now,
    system: params.origin,
  };
}
