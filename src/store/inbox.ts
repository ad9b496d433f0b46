import type Database from 'better-sqlite3';
import { messageEventSchema, type MessageEvent } from '../core/adapter.js';
import type { Clock } from '../core/clock.js';
import { StoreDataError } from './errors.js';
import type { StoreLogger } from './store-logger.js';
import type { InboxRow, InboxState, Store } from './types.js';

/** An inbox row as SQLite returns it. */
interface InboxRecord {
  id: number;
  platform: string;
  message_id: string;
  session_key: string;
  state: InboxState;
  event_json: string;
  attempts: number;
  received_at: number;
  updated_at: number;
}

/** Parses a stored event back, validating it against the MessageEvent contract. */
function toInboxRow(record: InboxRecord): InboxRow {
  let parsed: unknown;
  try {
    parsed = JSON.parse(record.event_json);
  } catch (cause) {
    throw new StoreDataError({ table: 'inbox', rowId: record.id, detail: 'event_json is not JSON', cause });
  }
  const result = messageEventSchema.safeParse(parsed);
  if (!result.success) {
    const detail = `event_json is not a MessageEvent: ${result.error.issues[0]?.message ?? 'invalid'}`;
    throw new StoreDataError({ table: 'inbox', rowId: record.id, detail, cause: result.error });
  }
  const event: MessageEvent = result.data;
  return {
    id: record.id,
    platform: record.platform,
    messageId: record.message_id,
    sessionKey: record.session_key,
    state: record.state,
    event,
    attempts: record.attempts,
    receivedAt: record.received_at,
    updatedAt: record.updated_at,
  };
}

/**
 * Serializes an event for the journal. A `raw` payload JSON cannot hold (a cycle, a BigInt) is
 * dropped with a warning rather than failing the journal write, which would lose the message.
 */
function serializeEvent(event: MessageEvent, logger: StoreLogger): string {
  try {
    return JSON.stringify(event);
  } catch (error) {
    const { raw: _dropped, ...rest } = event;
    logger.warn(
      { platform: event.platform, messageId: event.messageId, err: error },
      'store: inbound event raw payload is not JSON-serializable; journaling it without raw',
    );
    return JSON.stringify(rest);
  }
}

/** The inbox journal's part of the Store. */
export type InboxQueries = Pick<Store, 'recordInbound' | 'setInboxState' | 'pendingInbound' | 'getInbound' | 'pruneInbound'>;

/** Prepares the inbox statements once and returns the methods that use them. */
export function createInboxQueries(params: { db: Database.Database; clock: Clock; logger: StoreLogger }): InboxQueries {
  const { db, clock, logger } = params;
  const insert = db.prepare<{
    platform: string;
    messageId: string;
    sessionKey: string;
    eventJson: string;
    state: InboxState;
    now: number;
  }>(
    `INSERT INTO inbox (platform, message_id, session_key, state, event_json, received_at, updated_at)
     VALUES (@platform, @messageId, @sessionKey, @state, @eventJson, @now, @now)
     ON CONFLICT (platform, message_id) DO NOTHING`,
  );
  const byKey = db.prepare<[string, string], InboxRecord>('SELECT * FROM inbox WHERE platform = ? AND message_id = ?');
  const byId = db.prepare<[number], InboxRecord>('SELECT * FROM inbox WHERE id = ?');
  const pending = db.prepare<[], InboxRecord>("SELECT * FROM inbox WHERE state <> 'done' ORDER BY id");
  const updateState = db.prepare<{ id: number; state: InboxState; now: number }>(
    `UPDATE inbox SET state = @state, updated_at = @now,
       attempts = attempts + (CASE WHEN @state = 'processing' THEN 1 ELSE 0 END)
     WHERE id = @id`,
  );

  const prune = db.prepare<[number]>("DELETE FROM inbox WHERE state = 'done' AND updated_at < ?");

  return {
    pruneInbound: ({ before }) => prune.run(before).changes,
    recordInbound: ({ event, sessionKey, done }) => {
      const valid = messageEventSchema.parse(event);
      const { changes } = insert.run({
        platform: valid.platform,
        messageId: valid.messageId,
        sessionKey,
        eventJson: serializeEvent(valid, logger),
        state: done === true ? 'done' : 'received',
        now: clock.now(),
      });
      const record = byKey.get(valid.platform, valid.messageId);
      if (record === undefined) throw new Error(`inbox row ${valid.platform}/${valid.messageId} vanished after insert`);
      return { inserted: changes === 1, row: toInboxRow(record) };
    },
    setInboxState: ({ inboxId, state }) => {
      if (updateState.run({ id: inboxId, state, now: clock.now() }).changes === 0) {
        throw new Error(`cannot set state of inbox row ${inboxId}: no such row`);
      }
    },
    pendingInbound: () =>
      pending.all().flatMap((record) => {
        try {
          return [toInboxRow(record)];
        } catch (error) {
          // One damaged row must not stop every other pending message from being answered.
          logger.warn({ err: error, inboxId: record.id }, 'store: skipping a damaged inbox row during replay');
          return [];
        }
      }),
    getInbound: ({ inboxId }) => {
      const record = byId.get(inboxId);
      return record === undefined ? undefined : toInboxRow(record);
    },
  };
}
