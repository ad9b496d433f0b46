import type Database from 'better-sqlite3';
import { promptDigest } from './session-prompts.js';

/** One schema change. Versions start at 1 and have no gaps; a released migration is never edited. */
export interface Migration {
  /** Position in the schema history (1, 2, 3, ...). */
  readonly version: number;
  /** Short description, recorded in schema_migrations. */
  readonly name: string;
  /** Applies the change; runs inside a transaction the runner owns. */
  readonly up: (db: Database.Database) => void;
}

const initialSchema = `
CREATE TABLE inbox (
  id          INTEGER PRIMARY KEY,
  platform    TEXT    NOT NULL,
  message_id  TEXT    NOT NULL,
  session_key TEXT    NOT NULL,
  state       TEXT    NOT NULL CHECK (state IN ('received', 'processing', 'done')),
  event_json  TEXT    NOT NULL,
  attempts    INTEGER NOT NULL DEFAULT 0,
  received_at INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  UNIQUE (platform, message_id)
) STRICT;
CREATE INDEX inbox_pending ON inbox (id) WHERE state <> 'done';

CREATE TABLE outbox (
  inbox_id            INTEGER NOT NULL REFERENCES inbox (id) ON DELETE CASCADE,
  seq                 INTEGER NOT NULL CHECK (seq >= 0),
  platform            TEXT    NOT NULL,
  chat_id             TEXT    NOT NULL,
  platform_message_id TEXT    NOT NULL,
  text                TEXT    NOT NULL,
  state               TEXT    NOT NULL CHECK (state IN ('open', 'final')),
  updated_at          INTEGER NOT NULL,
  PRIMARY KEY (inbox_id, seq)
) STRICT, WITHOUT ROWID;

CREATE TABLE sessions (
  id                TEXT    PRIMARY KEY,
  key               TEXT    NOT NULL,
  parent_session_id TEXT    REFERENCES sessions (id),
  title             TEXT,
  started_at        INTEGER NOT NULL,
  ended_at          INTEGER
) STRICT;
-- Serves the active-session lookup too: a key has few sessions, and ended_at is checked on them.
CREATE INDEX sessions_by_key ON sessions (key, started_at);
CREATE INDEX sessions_by_start ON sessions (started_at);

CREATE TABLE messages (
  id              INTEGER PRIMARY KEY,
  session_id      TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  inbox_id        INTEGER REFERENCES inbox (id) ON DELETE SET NULL,
  role            TEXT    NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
  content         TEXT    NOT NULL,
  tool_calls_json TEXT,
  tool_call_id    TEXT,
  tool_name       TEXT,
  created_at      INTEGER NOT NULL
) STRICT;
CREATE INDEX messages_by_session ON messages (session_id, id);
CREATE INDEX messages_by_inbox ON messages (inbox_id) WHERE inbox_id IS NOT NULL;

CREATE VIRTUAL TABLE messages_fts USING fts5 (
  content,
  content = 'messages',
  content_rowid = 'id',
  tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
  INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
END;

CREATE TABLE cursors (
  name       TEXT    PRIMARY KEY,
  value      TEXT    NOT NULL,
  updated_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
`;

/** Sender pairing: codes unknown senders got, and the senders the owner let in. */
const pairingSchema = `
CREATE TABLE pairing_requests (
  platform    TEXT    NOT NULL,
  code        TEXT    NOT NULL,
  sender_id   TEXT    NOT NULL,
  sender_name TEXT,
  chat_id     TEXT    NOT NULL,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL,
  PRIMARY KEY (platform, code),
  UNIQUE (platform, sender_id)
) STRICT, WITHOUT ROWID;

CREATE TABLE approved_senders (
  platform    TEXT    NOT NULL,
  sender_id   TEXT    NOT NULL,
  sender_name TEXT,
  approved_at INTEGER NOT NULL,
  PRIMARY KEY (platform, sender_id)
) STRICT, WITHOUT ROWID;
`;

/**
 * Sends journaled before the platform call: a crash after the platform accepted a send but before its message id
 * was recorded leaves this row, and the replay finds the message it created instead of leaving it orphaned.
 */
const sendIntentSchema = `
CREATE TABLE send_intents (
  inbox_id   INTEGER NOT NULL REFERENCES inbox (id) ON DELETE CASCADE,
  seq        INTEGER NOT NULL CHECK (seq >= 0),
  platform   TEXT    NOT NULL,
  chat_id    TEXT    NOT NULL,
  nonce      TEXT    NOT NULL,
  after_id   TEXT,
  text       TEXT    NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (inbox_id, seq)
) STRICT, WITHOUT ROWID;
CREATE INDEX outbox_by_chat ON outbox (platform, chat_id);
`;

/**
 * The agent layer: each session keeps the system prompt it was built with (so every model call of the session sends
 * the same bytes), and every model call's token usage as the endpoint reported it.
 */
const agentSessionSchema = `
ALTER TABLE sessions ADD COLUMN system_prompt TEXT;
ALTER TABLE sessions ADD COLUMN prompt_layers_json TEXT;
CREATE TABLE model_calls (
  id                INTEGER PRIMARY KEY,
  session_id        TEXT    NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
  inbox_id          INTEGER REFERENCES inbox (id) ON DELETE SET NULL,
  model             TEXT    NOT NULL,
  prompt_tokens     INTEGER,
  completion_tokens INTEGER,
  cached_tokens     INTEGER,
  created_at        INTEGER NOT NULL
) STRICT;
CREATE INDEX model_calls_by_session ON model_calls (session_id);
`;

/**
 * The credential pool: per API key (by fingerprint, never the key itself) how often it was used and until when it
 * cools down after a rate-limit exhaustion, an out-of-credit answer or an auth failure, so a restart keeps skipping it.
 */
const credentialSchema = `
CREATE TABLE credential_state (
  fingerprint     TEXT    PRIMARY KEY,
  calls           INTEGER NOT NULL DEFAULT 0,
  cooldown_until  INTEGER,
  cooldown_reason TEXT,
  updated_at      INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
`;

/**
 * Scheduled jobs (issue 14): the jobs, their runs (UNIQUE (job_id, scheduled_for): claiming a scheduled time is one
 * INSERT that a second process or a replay after kill -9 cannot repeat), each run's delivery per target with the
 * platform's message ids, and the home channel per platform. Removing a job removes its runs and deliveries.
 */
const jobsSchema = `
CREATE TABLE jobs (
  id             TEXT    PRIMARY KEY,
  name           TEXT    NOT NULL,
  prompt         TEXT    NOT NULL,
  script         TEXT,
  schedule_text  TEXT    NOT NULL,
  schedule_kind  TEXT    NOT NULL CHECK (schedule_kind IN ('cron', 'interval', 'once')),
  schedule_json  TEXT    NOT NULL,
  time_zone      TEXT    NOT NULL,
  targets_json   TEXT    NOT NULL,
  state          TEXT    NOT NULL CHECK (state IN ('active', 'paused', 'done', 'failed')),
  created_at     INTEGER NOT NULL,
  updated_at     INTEGER NOT NULL,
  next_run_at    INTEGER,
  last_run_at    INTEGER,
  last_outcome   TEXT
) STRICT, WITHOUT ROWID;
CREATE INDEX jobs_due ON jobs (next_run_at) WHERE state = 'active';

CREATE TABLE job_runs (
  id             INTEGER PRIMARY KEY,
  job_id         TEXT    NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
  scheduled_for  INTEGER NOT NULL,
  started_at     INTEGER NOT NULL,
  finished_at    INTEGER,
  outcome        TEXT    NOT NULL
    CHECK (outcome IN ('running', 'delivered', 'delivery_failed', 'silent', 'skipped', 'retrying', 'failed')),
  error          TEXT,
  session_id     TEXT,
  attempts       INTEGER NOT NULL DEFAULT 1,
  retry_at       INTEGER,
  skipped_count  INTEGER,
  skipped_until  INTEGER,
  UNIQUE (job_id, scheduled_for)
) STRICT;
CREATE INDEX job_runs_retry ON job_runs (retry_at) WHERE retry_at IS NOT NULL;
CREATE INDEX job_runs_open ON job_runs (outcome) WHERE outcome = 'running';

CREATE TABLE job_deliveries (
  run_id           INTEGER NOT NULL REFERENCES job_runs (id) ON DELETE CASCADE,
  target           TEXT    NOT NULL,
  platform         TEXT    NOT NULL,
  chat_id          TEXT    NOT NULL,
  thread_id        TEXT,
  message_ids_json TEXT    NOT NULL,
  error            TEXT,
  attempts         INTEGER NOT NULL DEFAULT 1,
  updated_at       INTEGER NOT NULL,
  PRIMARY KEY (run_id, target)
) STRICT, WITHOUT ROWID;

CREATE TABLE home_channels (
  platform  TEXT    PRIMARY KEY,
  chat_id   TEXT    NOT NULL,
  chat_kind TEXT    NOT NULL CHECK (chat_kind IN ('dm', 'group', 'channel')),
  thread_id TEXT,
  set_at    INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
`;

/** Dangerous-command approval: the profile's "always allow" rules, one per pattern of the dangerous-command table. */
const approvalSchema = `
CREATE TABLE approval_rules (
  pattern_id  TEXT    PRIMARY KEY,
  description TEXT    NOT NULL,
  example     TEXT    NOT NULL,
  created_at  INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
`;

/**
 * A run's model-unreachable attempts, counted apart from its `attempts` (which delivery retries add to too), so
 * failed deliveries never use up the 5/15/30-minute model retries.
 */
const runModelAttemptsSchema = `
ALTER TABLE job_runs ADD COLUMN model_attempts INTEGER NOT NULL DEFAULT 0;
`;

/** delegate_task's children are found by their parent (usage totals, session listings): an index, not a table scan. */
const parentSessionIndexSchema = `
CREATE INDEX sessions_parent ON sessions (parent_session_id) WHERE parent_session_id IS NOT NULL;
`;

/**
 * Chat commands (issue 17): a session's model chosen with /model (null: the configured one), kept across a restart and
 * carried into the session a compression continues it in; a chat's own settings (/verbose), by session key.
 */
const chatCommandsSchema = `
ALTER TABLE sessions ADD COLUMN model TEXT;

CREATE TABLE chat_settings (
  session_key   TEXT    PRIMARY KEY,
  tool_progress TEXT    CHECK (tool_progress IN ('all', 'new', 'off')),
  updated_at    INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
`;

/**
 * Messages taken back by /undo or set aside by /retry: `hidden_by` is the inbox id of the command's row. Hidden
 * messages stay in the table (a /retry replayed after a crash finds the text it answers again there) but no history,
 * count, search or compression reads them.
 */
const hiddenMessagesSchema = `
ALTER TABLE messages ADD COLUMN hidden_by INTEGER;
CREATE INDEX messages_hidden_by ON messages (hidden_by) WHERE hidden_by IS NOT NULL;
`;

/**
 * Every per-session read of the messages asks for the visible ones (`hidden_by IS NULL`), and the session columns
 * count them on every session lookup (two per turn). With `hidden_by` in the index that count (and the lookups of a
 * neighbouring or the last message id) reads only the index, no longer each of the session's rows from the table (it
 * did, to test `hidden_by`; the cost grew with the session). The prefix (session_id) still serves the cascade from
 * sessions.
 */
const visibleMessagesIndexSchema = `
DROP INDEX messages_by_session;
CREATE INDEX messages_by_session ON messages (session_id, hidden_by, id);
`;

/**
 * The full-text index written in batches: a new message's rowid is queued in messages_fts_pending, and the queue
 * enters messages_fts 64 rows at a time and before every search (search-index.ts). FTS5 rewrites a segment and its
 * structure record on every commit, which made the index most of a message insert's cost. A queued row that is
 * deleted leaves the queue (it was never indexed); an indexed one leaves the index as before. Only a change of the
 * content touches the index (hiding a message no longer rewrites its index entry).
 */
const batchedSearchIndexSchema = `
CREATE TABLE messages_fts_pending (id INTEGER PRIMARY KEY) STRICT;
DROP TRIGGER messages_fts_insert;
DROP TRIGGER messages_fts_delete;
DROP TRIGGER messages_fts_update;
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages BEGIN
  INSERT INTO messages_fts_pending (id) VALUES (new.id);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, content)
    SELECT 'delete', old.id, old.content WHERE NOT EXISTS (SELECT 1 FROM messages_fts_pending WHERE id = old.id);
  DELETE FROM messages_fts_pending WHERE id = old.id;
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF content ON messages
  WHEN NOT EXISTS (SELECT 1 FROM messages_fts_pending WHERE id = old.id)
BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, content) VALUES ('delete', old.id, old.content);
  INSERT INTO messages_fts (rowid, content) VALUES (new.id, new.content);
END;
`;

/**
 * Session prompts in a table of their own (issue 27): a system prompt is ~10 KB, and kept in the sessions row it made
 * every later column (model, extra_tools_json) a walk through its overflow pages, and every update of the row (title,
 * end, model) a rewrite of it. Sessions started within one minute on one platform share the same prompt text, so a
 * prompt is stored once by its digest (sha256 of text, layers and tools) and sessions point at it. Sessions are never
 * deleted, so a prompt is never orphaned.
 */
const promptsSchema = `
CREATE TABLE prompts (
  id               INTEGER PRIMARY KEY,
  digest           TEXT    NOT NULL UNIQUE,
  text             TEXT    NOT NULL,
  layers_json      TEXT    NOT NULL,
  extra_tools_json TEXT
) STRICT;
ALTER TABLE sessions ADD COLUMN prompt_id INTEGER REFERENCES prompts (id);
`;

/** Moves every stored session prompt into `prompts` (one row per distinct prompt), then drops the old columns. */
function movePrompts(db: Database.Database): void {
  db.exec(promptsSchema);
  // A page at a time: a store of years holds thousands of ~10 KB prompts (and a statement cannot read while others write).
  const page = db.prepare<[number], { rid: number; id: string; text: string; layers: string | null; tools: string | null }>(
    'SELECT rowid AS rid, id, system_prompt AS text, prompt_layers_json AS layers, extra_tools_json AS tools FROM sessions WHERE rowid > ? AND system_prompt IS NOT NULL ORDER BY rowid LIMIT 200',
  );
  const insert = db.prepare<{ digest: string; text: string; layers: string; tools: string | null }>(
    'INSERT INTO prompts (digest, text, layers_json, extra_tools_json) VALUES (@digest, @text, @layers, @tools) ON CONFLICT (digest) DO NOTHING',
  );
  const idOf = db.prepare<[string], number>('SELECT id FROM prompts WHERE digest = ?').pluck();
  const point = db.prepare<{ session: string; prompt: number }>('UPDATE sessions SET prompt_id = @prompt WHERE id = @session');
  for (let after = 0, rows = page.all(after); rows.length > 0; rows = page.all(after)) {
    for (const row of rows) {
      const layers = row.layers ?? '[]';
      const digest = promptDigest({ text: row.text, layers, tools: row.tools });
      insert.run({ digest, text: row.text, layers, tools: row.tools });
      const prompt = idOf.get(digest);
      if (prompt !== undefined) point.run({ session: row.id, prompt });
      after = row.rid;
    }
  }
  db.exec('ALTER TABLE sessions DROP COLUMN system_prompt; ALTER TABLE sessions DROP COLUMN prompt_layers_json; ALTER TABLE sessions DROP COLUMN extra_tools_json;');
}

/**
 * Senses (issue 29): a chat's own /voice choice (null is the default, off; `on` answers voice with voice, `tts` every
 * reply), and when the chat was told its model cannot see images (it is told once).
 */
const sensesSchema = `
ALTER TABLE chat_settings ADD COLUMN voice_mode TEXT CHECK (voice_mode IN ('off', 'on', 'tts'));
ALTER TABLE chat_settings ADD COLUMN no_vision_told_at INTEGER;
`;

/** The store's schema history, oldest first. Append new migrations; never edit released ones. */
export const migrations: readonly Migration[] = [
  { version: 1, name: 'initial schema', up: (db) => db.exec(initialSchema) },
  { version: 2, name: 'sender pairing', up: (db) => db.exec(pairingSchema) },
  { version: 3, name: 'send intents', up: (db) => db.exec(sendIntentSchema) },
  { version: 4, name: 'session prompts and model usage', up: (db) => db.exec(agentSessionSchema) },
  { version: 5, name: 'credential pool state', up: (db) => db.exec(credentialSchema) },
  { version: 6, name: 'scheduled jobs', up: (db) => db.exec(jobsSchema) },
  { version: 7, name: 'approval rules', up: (db) => db.exec(approvalSchema) },
  { version: 8, name: 'model attempts of job runs', up: (db) => db.exec(runModelAttemptsSchema) },
  { version: 9, name: 'sessions by parent', up: (db) => db.exec(parentSessionIndexSchema) },
  { version: 10, name: 'session model and chat settings', up: (db) => db.exec(chatCommandsSchema) },
  { version: 11, name: 'hidden messages', up: (db) => db.exec(hiddenMessagesSchema) },
  { version: 12, name: 'visible messages by session', up: (db) => db.exec(visibleMessagesIndexSchema) },
  { version: 13, name: 'search index in batches', up: (db) => db.exec(batchedSearchIndexSchema) },
  { version: 14, name: 'session tools beyond the built-in ones', up: (db) => db.exec('ALTER TABLE sessions ADD COLUMN extra_tools_json TEXT;') },
  { version: 15, name: 'session prompts stored once, outside the sessions row', up: movePrompts },
  { version: 16, name: "a chat's voice replies and vision notice", up: (db) => db.exec(sensesSchema) },
];
