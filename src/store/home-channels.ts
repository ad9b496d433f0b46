import type Database from 'better-sqlite3';
import type { ChatKind } from '../gateway/contracts.js';
import type { HomeChannel, KnownChat } from '../jobs/job-types.js';
import type { Clock } from '../util/clock.js';
import type { Store } from './types.js';

/** A home_channels row as SQLite returns it. */
interface HomeRecord {
  platform: string;
  chat_id: string;
  chat_kind: ChatKind;
  thread_id: string | null;
  set_at: number;
}

/** Maps a stored home channel to the contract's shape. */
function toHome(record: HomeRecord): HomeChannel {
  return {
    platform: record.platform,
    chat: { id: record.chat_id, kind: record.chat_kind, ...(record.thread_id !== null ? { threadId: record.thread_id } : {}) },
    setAt: record.set_at,
  };
}

/** The home-channel part of the Store. */
export type HomeChannelQueries = Pick<Store, 'setHomeChannel' | 'homeChannel' | 'homeChannels' | 'knownChats'>;

/** Prepares the home-channel statements once and returns the methods that use them. */
export function createHomeChannelQueries(params: { db: Database.Database; clock: Clock }): HomeChannelQueries {
  const { db, clock } = params;
  const upsert = db.prepare<HomeRecord>(
    `INSERT INTO home_channels (platform, chat_id, chat_kind, thread_id, set_at) VALUES (@platform, @chat_id, @chat_kind, @thread_id, @set_at)
     ON CONFLICT (platform) DO UPDATE SET chat_id = excluded.chat_id, chat_kind = excluded.chat_kind,
       thread_id = excluded.thread_id, set_at = excluded.set_at`,
  );
  const one = db.prepare<[string], HomeRecord>('SELECT * FROM home_channels WHERE platform = ?');
  const all = db.prepare<[], HomeRecord>('SELECT * FROM home_channels ORDER BY platform');
  // The inbox holds only messages of senders let in (allowlist or pairing): the chats the profile talks with.
  const known = db.prepare<[number], { platform: string; chat_id: string; chat_kind: ChatKind; thread_id: string | null; last_at: number }>(
    `SELECT platform, json_extract(event_json, '$.chat.id') AS chat_id, json_extract(event_json, '$.chat.kind') AS chat_kind,
       json_extract(event_json, '$.chat.threadId') AS thread_id, MAX(received_at) AS last_at
     FROM inbox GROUP BY platform, chat_id, thread_id ORDER BY last_at DESC, MAX(id) DESC LIMIT ?`,
  );
  return {
    setHomeChannel: ({ platform, chat }) => {
      const record: HomeRecord = { platform, chat_id: chat.id, chat_kind: chat.kind, thread_id: chat.threadId ?? null, set_at: clock.now() };
      upsert.run(record);
      return toHome(record);
    },
    homeChannel: ({ platform }) => {
      const record = one.get(platform);
      return record ? toHome(record) : undefined;
    },
    homeChannels: () => all.all().map(toHome),
    knownChats: ({ limit }) =>
      known.all(limit).flatMap((r) =>
        typeof r.chat_id === 'string' && r.chat_id !== ''
          ? [{ platform: r.platform, chat: { id: r.chat_id, kind: r.chat_kind, ...(r.thread_id !== null ? { threadId: r.thread_id } : {}) }, lastAt: r.last_at }]
          : [],
      ),
  };
}
