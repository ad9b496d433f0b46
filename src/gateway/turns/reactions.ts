import type { Logger } from 'pino';
import type { ChatRef, PlatformAdapter } from '../../core/adapter.js';

/** Adds (or with `remove`, takes off) one turn-state reaction; a platform refusing it is logged, never fatal. */
export async function reactToTurn(params: { adapter: PlatformAdapter; chat: ChatRef; messageId: string; emoji: string; logger: Logger; remove?: boolean }): Promise<void> {
  const call = params.remove === true ? params.adapter.unreact : params.adapter.react;
  if (!call || params.emoji === '') return;
  try {
    await call.call(params.adapter, { chat: params.chat, messageId: params.messageId, emoji: params.emoji });
  } catch (error) {
    params.logger.debug({ err: error, emoji: params.emoji }, 'turn reaction failed');
  }
}
