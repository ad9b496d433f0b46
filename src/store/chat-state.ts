import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import { sessionColumns, toSessionRow, type SessionRecord } from './sessions.js';
import type { Store, VoiceMode } from './types.js';

/** A session's model_calls summed per model, as SQLite returns it. */
interface ModelUsageRecord {
  model: string;
  calls: number;
  unreported: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
}

/** The chat-command part of the Store: a session's chosen model, a chat's settings, resuming a session, usage per model. */
export type ChatStateQueries = Pick<Store, 'sessionModel' | 'setSessionModel' | 'chatToolProgress' | 'setChatToolProgress' | 'chatVoiceMode' | 'setChatVoiceMode' | 'chatToldNoVision' | 'setChatToldNoVision' | 'reopenSession' | 'sessionUsageByModel'>;

/** Prepares the chat-command statements once and returns the methods that use them. */
export function createChatStateQueries(params: { db: Database.Database; clock: Clock }): ChatStateQueries {
  const { db, clock } = params;
  const model = db.prepare<[string], { model: string | null }>('SELECT model FROM sessions WHERE id = ?');
  const setModel = db.prepare<{ id: string; model: string | null }>('UPDATE sessions SET model = @model WHERE id = @id');
  const progress = db.prepare<[string], { tool_progress: 'all' | 'new' | 'off' | null }>('SELECT tool_progress FROM chat_settings WHERE session_key = ?');
  const setProgress = db.prepare<{ key: string; mode: string | null; now: number }>(
    `INSERT INTO chat_settings (session_key, tool_progress, updated_at) VALUES (@key, @mode, @now)
     ON CONFLICT (session_key) DO UPDATE SET tool_progress = excluded.tool_progress, updated_at = excluded.updated_at`,
  );
  const voice = db.prepare<[string], { voice_mode: VoiceMode | null }>('SELECT voice_mode FROM chat_settings WHERE session_key = ?');
  const setVoice = db.prepare<{ key: string; mode: string | null; now: number }>(
    `INSERT INTO chat_settings (session_key, voice_mode, updated_at) VALUES (@key, @mode, @now)
     ON CONFLICT (session_key) DO UPDATE SET voice_mode = excluded.voice_mode, updated_at = excluded.updated_at`,
  );
  const toldNoVision = db.prepare<[string], { no_vision_told_at: number | null }>('SELECT no_vision_told_at FROM chat_settings WHERE session_key = ?');
  const setToldNoVision = db.prepare<{ key: string; now: number }>(
    `INSERT INTO chat_settings (session_key, no_vision_told_at, updated_at) VALUES (@key, @now, @now)
     ON CONFLICT (session_key) DO UPDATE SET no_vision_told_at = excluded.no_vision_told_at, updated_at = excluded.updated_at`,
  );
  const byId = db.prepare<[string], SessionRecord>(`SELECT ${sessionColumns} FROM sessions s WHERE s.id = ?`);
  const endOthers = db.prepare<{ key: string; id: string; now: number }>('UPDATE sessions SET ended_at = @now WHERE key = @key AND id <> @id AND ended_at IS NULL');
  const reopen = db.prepare<[string]>('UPDATE sessions SET ended_at = NULL WHERE id = ?');
  const reopenRun = db.transaction((sessionId: string) => {
    const record = byId.get(sessionId);
    if (record === undefined) throw new Error(`cannot resume session ${sessionId}: no such session`);
    endOthers.run({ key: record.key, id: record.id, now: clock.now() });
    reopen.run(record.id);
    return toSessionRow({ ...record, ended_at: null });
  });
  const byModel = (children: boolean): Database.Statement<{ id: string }, ModelUsageRecord> =>
    db.prepare<{ id: string }, ModelUsageRecord>(
      `SELECT model,
              count(*) AS calls,
              count(*) FILTER (WHERE prompt_tokens IS NULL AND completion_tokens IS NULL) AS unreported,
              coalesce(sum(prompt_tokens), 0) AS prompt_tokens,
              coalesce(sum(completion_tokens), 0) AS completion_tokens,
              coalesce(sum(cached_tokens), 0) AS cached_tokens
       FROM model_calls
       WHERE session_id = @id${children ? ' OR session_id IN (SELECT c.id FROM sessions c JOIN sessions p ON p.id = @id WHERE c.parent_session_id = @id AND c.key <> p.key)' : ''}
       GROUP BY model ORDER BY count(*) DESC, model`,
    );
  const usageOwn = byModel(false);
  const usageAll = byModel(true);
  return {
    sessionModel: ({ sessionId }) => model.get(sessionId)?.model ?? null,
    setSessionModel: ({ sessionId, model: name }) => {
      if (setModel.run({ id: sessionId, model: name }).changes === 0) throw new Error(`cannot set the model of session ${sessionId}: no such session`);
    },
    chatToolProgress: ({ key }) => progress.get(key)?.tool_progress ?? undefined,
    setChatToolProgress: ({ key, mode }) => {
      setProgress.run({ key, mode, now: clock.now() });
    },
    chatVoiceMode: ({ key }) => voice.get(key)?.voice_mode ?? undefined,
    setChatVoiceMode: ({ key, mode }) => {
      setVoice.run({ key, mode, now: clock.now() });
    },
    chatToldNoVision: ({ key }) => (toldNoVision.get(key)?.no_vision_told_at ?? null) !== null,
    setChatToldNoVision: ({ key }) => {
      setToldNoVision.run({ key, now: clock.now() });
    },
    reopenSession: ({ sessionId }) => reopenRun.immediate(sessionId),
    sessionUsageByModel: ({ sessionId, withChildren }) =>
      (withChildren === true ? usageAll : usageOwn).all({ id: sessionId }).map((r) => ({
        model: r.model,
        calls: r.calls,
        unreported: r.unreported,
        promptTokens: r.prompt_tokens,
        completionTokens: r.completion_tokens,
        cachedTokens: r.cached_tokens,
      })),
  };
}
