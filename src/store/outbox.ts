import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import type { OutboxRow, Store } from './types.js';

/** An outbox row as SQLite returns it. */
interface OutboxRecord {
  inbox_id: number;
  seq: number;
  platform: string;
  chat_id: string;
  platform_message_id: string;
  text: string;
  state: 'open' | 'final';
  updated_at: number;
}

/** Maps a stored row to the contract's camelCase shape. */
function toOutboxRow(record: OutboxRecord): OutboxRow {
  return {
    inboxId: record.inbox_id,
    seq: record.seq,
    platform: record.platform,
    chatId: record.chat_id,
    platformMessageId: record.platform_message_id,
    text: record.text,
    state: record.state,
    updatedAt: record.updated_at,
  };
}

/** The outbox's part of the Store. */
export type OutboxQueries = Pick<Store, 'recordOutbound' | 'outboundFor' | 'completeTurn'>;

/** Prepares the outbox statements once and returns the methods that use them. */
export function createOutboxQueries(params: { db: Database.Database; clock: Clock }): OutboxQueries {
  const { db, clock } = params;
  const upsert = db.prepare<Omit<OutboxRow, 'updatedAt'> & { now: number }>(
    `INSERT INTO outbox (inbox_id, seq, platform, chat_id, platform_message_id, text, state, updated_at)
     VALUES (@inboxId, @seq, @platform, @chatId, @platformMessageId, @text, @state, @now)
     ON CONFLICT (inbox_id, seq) DO UPDATE SET
       platform = excluded.platform,
       chat_id = excluded.chat_id,
       platform_message_id = excluded.platform_message_id,
       text = excluded.text,
       state = excluded.state,
       updated_at = excluded.updated_at`,
  );
  const settleIntent = db.prepare<{ inboxId: number; seq: number }>('DELETE FROM send_intents WHERE inbox_id = @inboxId AND seq = @seq');
  const dropIntents = db.prepare<[number]>('DELETE FROM send_intents WHERE inbox_id = ?');
  // The message id and the end of its send intent land together: a crash leaves one or the other, never neither.
  const record = db.transaction((row: Omit<OutboxRow, 'updatedAt'>): void => {
    upsert.run({
      inboxId: row.inboxId,
      seq: row.seq,
      platform: row.platform,
      chatId: row.chatId,
      platformMessageId: row.platformMessageId,
      text: row.text,
      state: row.state,
      now: clock.now(),
    });
    settleIntent.run({ inboxId: row.inboxId, seq: row.seq });
  });
  const forTurn = db.prepare<[number], OutboxRecord>('SELECT * FROM outbox WHERE inbox_id = ? ORDER BY seq');
  const finalize = db.prepare<{ inboxId: number; now: number }>(
    "UPDATE outbox SET state = 'final', updated_at = @now WHERE inbox_id = @inboxId AND state <> 'final'",
  );
  const markDone = db.prepare<{ inboxId: number; now: number }>(
    "UPDATE inbox SET state = 'done', updated_at = @now WHERE id = @inboxId",
  );
  const complete = db.transaction((inboxId: number, merged: readonly number[]): void => {
    const now = clock.now();
    finalize.run({ inboxId, now });
    dropIntents.run(inboxId);
    if (markDone.run({ inboxId, now }).changes === 0) {
      throw new Error(`cannot complete turn of inbox row ${inboxId}: no such row`);
    }
    for (const id of merged) markDone.run({ inboxId: id, now });
  });

  return {
    recordOutbound: (row) => record(row),
    outboundFor: ({ inboxId }) => forTurn.all(inboxId).map(toOutboxRow),
    completeTurn: ({ inboxId, merged }) => complete(inboxId, merged ?? []),
  };
}
