import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { Clock } from '../core/clock.js';
import { StoreDataError } from './errors.js';
import type { SearchIndex } from './search-index.js';
import type { MessageRole, NewMessage, Store, StoredMessage, StoredToolCall } from './types.js';

/** A messages row as SQLite returns it. */
interface MessageRecord {
  id: number;
  session_id: string;
  inbox_id: number | null;
  role: MessageRole;
  content: string;
  tool_calls_json: string | null;
  tool_call_id: string | null;
  tool_name: string | null;
  created_at: number;
  hidden_by?: number | null;
}

const toolCallsSchema = z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() }));

/** Keeps exactly the contract's fields, so stray properties never reach the database. */
function serializeToolCalls(toolCalls: readonly StoredToolCall[] | null | undefined): string | null {
  if (toolCalls === null || toolCalls === undefined) return null;
  return JSON.stringify(toolCalls.map(({ id, name, arguments: args }) => ({ id, name, arguments: args })));
}

/** Parses stored tool calls back, validating their shape. */
function parseToolCalls(record: MessageRecord): StoredToolCall[] | null {
  if (record.tool_calls_json === null) return null;
  try {
    return toolCallsSchema.parse(JSON.parse(record.tool_calls_json));
  } catch (cause) {
    throw new StoreDataError({ table: 'messages', rowId: record.id, detail: 'tool_calls_json is malformed', cause });
  }
}

/** Maps a stored row to the contract's camelCase shape. */
function toStoredMessage(record: MessageRecord): StoredMessage {
  return {
    id: record.id,
    sessionId: record.session_id,
    inboxId: record.inbox_id,
    role: record.role,
    content: record.content,
    toolCalls: parseToolCalls(record),
    toolCallId: record.tool_call_id,
    toolName: record.tool_name,
    createdAt: record.created_at,
  };
}

/** The chat history's part of the Store (search lives in search.ts). */
export type MessageQueries = Pick<
  Store,
  'appendMessage' | 'history' | 'historyStart' | 'latestAssistantMessages' | 'deleteTurnMessages' | 'countUserTurns' | 'hideMessages' | 'hiddenMessages'
>;

/** Prepares the message statements once and returns the methods that use them. */
export function createMessageQueries(params: { db: Database.Database; clock: Clock; searchIndex: SearchIndex }): MessageQueries {
  const { db, clock, searchIndex } = params;
  const insert = db.prepare<
    {
      sessionId: string;
      inboxId: number | null;
      role: MessageRole;
      content: string;
      toolCallsJson: string | null;
      toolCallId: string | null;
      toolName: string | null;
      now: number;
    },
    MessageRecord
  >(
    `INSERT INTO messages (session_id, inbox_id, role, content, tool_calls_json, tool_call_id, tool_name, created_at)
     VALUES (@sessionId, @inboxId, @role, @content, @toolCallsJson, @toolCallId, @toolName, @now)
     RETURNING *`,
  );
  // Messages /undo or /retry hid (hidden_by set) are never part of a history.
  const bySession = db.prepare<[string], MessageRecord>('SELECT * FROM messages WHERE session_id = ? AND hidden_by IS NULL ORDER BY id');
  const recentBySession = db.prepare<[string, number], MessageRecord>(
    'SELECT * FROM (SELECT * FROM messages WHERE session_id = ? AND hidden_by IS NULL ORDER BY id DESC LIMIT ?) ORDER BY id',
  );
  const firstBySession = db.prepare<[string, number], MessageRecord>('SELECT * FROM messages WHERE session_id = ? AND hidden_by IS NULL ORDER BY id LIMIT ?');
  // Walks the session's index back from its newest row, so it reads about `limit` turns' rows, not the session.
  const latestAssistant = db.prepare<[string, number], MessageRecord>(
    "SELECT * FROM messages WHERE session_id = ? AND role = 'assistant' AND hidden_by IS NULL ORDER BY id DESC LIMIT ?",
  );
  const hide = db.prepare<{ sessionId: string; fromId: number; by: number }>(
    'UPDATE messages SET hidden_by = @by WHERE session_id = @sessionId AND id >= @fromId AND hidden_by IS NULL',
  );
  const hiddenBy = db.prepare<[number], MessageRecord>('SELECT * FROM messages WHERE hidden_by = ? ORDER BY id');
  const deleteByInbox = db.prepare<[number]>('DELETE FROM messages WHERE inbox_id = ?');
  // One user message per turn carries the turn's inbox id; copies a compression wrote into a continued session carry
  // none, except the running turn's (the same id as in the old session: counted once).
  const countTurns = db.prepare<[string], { n: number }>(
    "SELECT count(DISTINCT inbox_id) AS n FROM messages WHERE role = 'user' AND inbox_id IS NOT NULL AND hidden_by IS NULL AND session_id IN (SELECT value FROM json_each(?))",
  );

  return {
    appendMessage: (message: NewMessage) => {
      const record = insert.get({
        sessionId: message.sessionId,
        inboxId: message.inboxId ?? null,
        role: message.role,
        content: message.content,
        toolCallsJson: serializeToolCalls(message.toolCalls),
        toolCallId: message.toolCallId ?? null,
        toolName: message.toolName ?? null,
        now: clock.now(),
      });
      if (record === undefined) throw new Error('INSERT ... RETURNING gave no row for a new message');
      searchIndex.added();
      return toStoredMessage(record);
    },
    history: ({ sessionId, limit }) =>
      (limit === undefined ? bySession.all(sessionId) : recentBySession.all(sessionId, Math.max(0, limit))).map(toStoredMessage),
    historyStart: ({ sessionId, limit }) => firstBySession.all(sessionId, Math.max(0, limit)).map(toStoredMessage),
    latestAssistantMessages: ({ sessionId, limit }) => latestAssistant.all(sessionId, Math.max(0, limit)).map(toStoredMessage),
    deleteTurnMessages: ({ inboxId }) => deleteByInbox.run(inboxId).changes,
    countUserTurns: ({ sessionIds }) => countTurns.get(JSON.stringify(sessionIds))?.n ?? 0,
    hideMessages: ({ sessionId, fromMessageId, hiddenBy: by }) => hide.run({ sessionId, fromId: fromMessageId, by }).changes,
    hiddenMessages: ({ hiddenBy: by }) => hiddenBy.all(by).map(toStoredMessage),
  };
}
