import assert from 'node:assert/strict';
import type { FakeTelegram } from '../fakes/telegram/index.js';
import type { BotMessage } from '../fakes/telegram/types.js';

/** The labels of the inline keyboard a message shows now, row by row. */
export function keyboardLabels(fake: FakeTelegram, q: BotMessage, chatId: number): string[][] {
  return fake.buttons({ chatId, messageId: q.message_id }).map((row) => row.map((b) => b.text));
}

/** The message as the fake holds it now (after edits). */
export function messageNow(fake: FakeTelegram, q: BotMessage, chatId: number): BotMessage {
  const m = fake.chatMessages(chatId).find((x) => x.message_id === q.message_id);
  assert.ok(m);
  return m;
}
