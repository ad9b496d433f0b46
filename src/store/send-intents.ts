import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import type { SendIntentRow, Store } from './types.js';

/** A send_intents row as SQLite returns it. */
interface SendIntentRecord {
  inbox_id: number;
  seq: number;
  platform: string;
  chat_id: string;
  nonce: string;
  after_id: string | null;
  text: string;
  created_at: number;
}

/** The send-intent part of the Store. */
export type SendIntentQueries = Pick<Store, 'recordSendIntent' | 'sendIntentsFor' | 'outboundIdsInChat'>;

/** Prepares the send-intent statements once and returns the methods that use them. */
export function createSendIntentQueries(params: { db: Database.Database; clock: Clock }): SendIntentQueries {
  const { db, clock } = params;
  const upsert = db.prepare<Omit<SendIntentRow, 'createdAt'> & { now: number }>(
    `INSERT INTO send_intents (inbox_id, seq, platform, chat_id, nonce, after_id, text, created_at)
     VALUES (@inboxId, @seq, @platform, @chatId, @nonce, @afterId, @text, @now)
     ON CONFLICT (inbox_id, seq) DO UPDATE SET
       platform = excluded.platform, chat_id = excluded.chat_id, nonce = excluded.nonce,
       after_id = excluded.after_id, text = excluded.text, created_at = excluded.created_at`,
  );
  // An intent whose seq has an outbox row was settled (recordOutbound removes it; this guards older rows too).
  const forTurn = db.prepare<[number], SendIntentRecord>(
    `SELECT i.* FROM send_intents i
     WHERE i.inbox_id = ? AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.inbox_id = i.inbox_id AND o.seq = i.seq)
     ORDER BY i.seq`,
  );
  const idsInChat = db.prepare<[string, string], string>('SELECT platform_message_id FROM outbox WHERE platform = ? AND chat_id = ?').pluck();
  return {
    recordSendIntent: (row) => {
      upsert.run({ inboxId: row.inboxId, seq: row.seq, platform: row.platform, chatId: row.chatId, nonce: row.nonce, afterId: row.afterId, text: row.text, now: clock.now() });
    },
    sendIntentsFor: ({ inboxId }) =>
      forTurn.all(inboxId).map((r) => ({
        inboxId: r.inbox_id, seq: r.seq, platform: r.platform, chatId: r.chat_id, nonce: r.nonce, afterId: r.after_id, text: r.text, createdAt: r.created_at,
      })),
    outboundIdsInChat: ({ platform, chatId }) => idsInChat.all(platform, chatId),
  };
}
