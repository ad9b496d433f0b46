import type { ChatRef, MessageEvent, SystemOrigin } from '../core/adapter.js';
import type { Store } from '../store/types.js';
import { isHeartbeatOk } from './heartbeat-prompt.js';

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

/** The newest assistant text of a session (a run's answer, for further targets and delivery retries). */
export function lastAnswer(params: { store: Store; sessionId: string }): string {
  const messages = params.store.history({ sessionId: params.sessionId, limit: 50 });
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message !== undefined && message.role === 'assistant' && message.content.trim() !== '') return message.content;
  }
  return '';
}
