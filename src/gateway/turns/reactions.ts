import type { Logger } from 'pino';
import type { ChatRef, PlatformAdapter } from '../../core/adapter.js';

/** Adds (or with `remove`, takes off) one turn-state reaction; a platform refusing it is logged, never fatal. */
export async function reactToTurn(params: { adapter: PlatformAdapter; chat: ChatRef; messageId: string; emoji: string; logger: Logger; remove?: boolean }): Promise<void> {
  const { adapter } = params;
  if (params.emoji === '') return;
  const request = { chat: params.chat, messageId: params.messageId, emoji: params.emoji };
  try {
    await (params.remove === true ? adapter.unreact?.(request) : adapter.react?.(request));
  } catch (error) {
    params.logger.debug({ err: error, emoji: params.emoji }, 'turn reaction failed');
  }
}
