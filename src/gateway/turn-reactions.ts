import type { Logger } from 'pino';
import type { ChatRef, PlatformAdapter } from './contracts.js';

/** Emoji put on the message being answered as its turn goes. */
export interface TurnReactions {
  readonly start: string;
  readonly done: string;
  readonly error: string;
}

/** 👀 while the agent works, ✅ when the answer is out, ❌ when it failed. */
export const defaultTurnReactions: TurnReactions = { start: '👀', done: '✅', error: '❌' };

/** Adds one turn-state reaction; a platform refusing it is logged, never fatal. */
export async function reactToTurn(params: { adapter: PlatformAdapter; chat: ChatRef; messageId: string; emoji: string; logger: Logger }): Promise<void> {
  if (!params.adapter.react) return;
  try {
    await params.adapter.react({ chat: params.chat, messageId: params.messageId, emoji: params.emoji });
  } catch (error) {
    params.logger.debug({ err: error, emoji: params.emoji }, 'turn reaction failed');
  }
}
