import type { Logger } from 'pino';
import type { ChatRef, PlatformAdapter } from '../../core/adapter.js';

/** Emoji put on the message being answered as its turn goes ('' for none). */
export interface TurnReactions {
  readonly start: string;
  readonly done: string;
  readonly error: string;
  /** Take the start reaction off when the turn ends, whatever the outcome (a "thinking" indicator). */
  readonly clearStart?: boolean;
}

/** 👀 while the agent works, ✅ when the answer is out, ❌ when it failed. */
export const defaultTurnReactions: TurnReactions = { start: '👀', done: '✅', error: '❌' };

/** A reaction used as a "thinking" indicator: on while the turn runs, always taken off after. */
export const thinkingReaction: TurnReactions = { start: 'eyes', done: '', error: '', clearStart: true };

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
