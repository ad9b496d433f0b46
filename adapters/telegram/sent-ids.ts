import type { Logger } from 'pino';
import type { AdapterStorage } from '../../src/core/adapter.js';

/** Message numbers kept per chat: more than the ids a search for an interrupted send looks at after the last known one. */
const KEPT_PER_CHAT = 40;

/**
 * The bot's recently sent message numbers per chat, kept in the adapter's storage so that they outlive the process:
 * after a crash, the search for an interrupted send (which edits candidate ids to the sent text) must skip a message
 * the previous process sent for something else (a command's answer, a pairing notice: no outbox holds those), or it
 * would overwrite that message with the preview's text and then give up, leaving the real preview orphaned.
 */
export class PersistedSentIds {
  private storage: AdapterStorage | undefined;
  private readonly logger: Logger;

  constructor(params: { logger: Logger }) {
    this.logger = params.logger;
  }

  /** Uses the adapter's storage from now on (given at start). */
  attach(params: { storage: AdapterStorage }): void {
    this.storage = params.storage;
  }

  /** Remembers that the bot sent `messageId` in `chatId`; a storage that refuses the write (full disk) is logged and skipped. */
  add(params: { chatId: string; messageId: string }): void {
    const number = Number(params.messageId);
    if (this.storage === undefined || !Number.isSafeInteger(number)) return;
    const kept = this.read({ chatId: params.chatId }).filter((n) => n !== number);
    kept.push(number);
    try {
      this.storage.set({ name: keyFor(params), value: JSON.stringify(kept.slice(-KEPT_PER_CHAT)) });
    } catch (error) {
      this.logger.warn({ err: error }, 'could not remember a sent message id; a search after a crash may not skip it');
    }
  }

  /** Whether the bot sent `messageId` in `chatId` (this process or an earlier one, among the recent ones). */
  has(params: { chatId: string; messageId: string }): boolean {
    return this.read(params).includes(Number(params.messageId));
  }

  private read(params: { chatId: string }): number[] {
    if (this.storage === undefined) return [];
    try {
      const parsed: unknown = JSON.parse(this.storage.get({ name: keyFor(params) }) ?? '[]');
      return Array.isArray(parsed) ? parsed.filter((n): n is number => Number.isSafeInteger(n)) : [];
    } catch {
      return [];
    }
  }
}

function keyFor(params: { chatId: string }): string {
  return `sent-ids:${params.chatId}`;
}
