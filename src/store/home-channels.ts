import type Database from 'better-sqlite3';
import type { ChatKind } from '../core/adapter.js';
import type { HomeChannel } from './job-types.js';
import type { Clock } from '../core/clock.js';
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
  // The chat's title is its newest person's message's sender (rows the gateway journals itself have a bot sender).
  const known = db.prepare<
    [number],
    { platform: string; chat_id: string; chat_kind: ChatKind; thread_id: string | null; last_at: number; sender_name: unknown; sender_username: unknown }
  >(
    `SELECT k.platform, k.chat_id, k.chat_kind, k.thread_id, k.last_at,
       json_extract(u.event_json, '$.sender.name') AS sender_name, json_extract(u.event_json, '$.sender.username') AS sender_username
     FROM (SELECT platform, json_extract(event_json, '$.chat.id') AS chat_id, json_extract(event_json, '$.chat.kind') AS chat_kind,
             json_extract(event_json, '$.chat.threadId') AS thread_id, MAX(received_at) AS last_at, MAX(id) AS max_id,
             MAX(CASE WHEN json_extract(event_json, '$.sender.isBot') = 0 THEN id END) AS person_id
           FROM inbox GROUP BY platform, chat_id, thread_id ORDER BY last_at DESC, max_id DESC LIMIT ?) AS k
     LEFT JOIN inbox AS u ON u.id = k.person_id
     ORDER BY k.last_at DESC, k.max_id DESC`,
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
          ? [{ platform: r.platform, chat: { id: r.chat_id, kind: r.chat_kind, ...(r.thread_id !== null ? { threadId: r.thread_id } : {}) }, lastAt: r.last_at, ...titleOf(r) }]
          : [],
      ),
  };
}

/** A known chat's readable name: the sender's display name, else their @username (nothing when neither is known). */
function titleOf(params: { sender_name: unknown; sender_username: unknown }): { title?: string } {
  const { sender_name: name, sender_username: username } = params;
  if (typeof name === 'string' && name.trim() !== '') return { title: name.trim() };
  if (typeof username === 'string' && username !== '') return { title: `@${username}` };
  return {};
}
