import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import type { Store } from './types.js';

/** A session's model_calls summed, as SQLite returns it. */
interface UsageRecord {
  calls: number;
  unreported: number;
  prompt_tokens: number;
  completion_tokens: number;
  cached_tokens: number;
}

/** The model-usage part of the Store. */
export type ModelCallQueries = Pick<Store, 'recordModelCall' | 'sessionUsage' | 'lastPromptTokens'>;

/** Prepares the model-usage statements once and returns the methods that use them. */
export function createModelCallQueries(params: { db: Database.Database; clock: Clock }): ModelCallQueries {
  const { db, clock } = params;
  const insert = db.prepare<{
    sessionId: string;
    inboxId: number | null;
    model: string;
    prompt: number | null;
    completion: number | null;
    cached: number | null;
    now: number;
  }>(
    `INSERT INTO model_calls (session_id, inbox_id, model, prompt_tokens, completion_tokens, cached_tokens, created_at)
     VALUES (@sessionId, @inboxId, @model, @prompt, @completion, @cached, @now)`,
  );
  const sum = db.prepare<[string], UsageRecord>(
    `SELECT count(*) AS calls,
            count(*) FILTER (WHERE prompt_tokens IS NULL AND completion_tokens IS NULL) AS unreported,
            coalesce(sum(prompt_tokens), 0) AS prompt_tokens,
            coalesce(sum(completion_tokens), 0) AS completion_tokens,
            coalesce(sum(cached_tokens), 0) AS cached_tokens
     FROM model_calls WHERE session_id = ?`,
  );
  // A session's children: sessions it is the parent of under another key (delegate_task's); a compression's or /new's
  // successor keeps the key, so it is not one.
  const sumWithChildren = db.prepare<{ id: string }, UsageRecord>(
    `SELECT count(*) AS calls,
            count(*) FILTER (WHERE prompt_tokens IS NULL AND completion_tokens IS NULL) AS unreported,
            coalesce(sum(prompt_tokens), 0) AS prompt_tokens,
            coalesce(sum(completion_tokens), 0) AS completion_tokens,
            coalesce(sum(cached_tokens), 0) AS cached_tokens
     FROM model_calls
     WHERE session_id = @id
        OR session_id IN (SELECT c.id FROM sessions c JOIN sessions p ON p.id = @id WHERE c.parent_session_id = @id AND c.key <> p.key)`,
  );
  const last = db.prepare<[string], { prompt_tokens: number }>(
    `SELECT prompt_tokens FROM model_calls WHERE session_id = ? AND prompt_tokens IS NOT NULL ORDER BY id DESC LIMIT 1`,
  );
  return {
    lastPromptTokens: ({ sessionId }) => last.get(sessionId)?.prompt_tokens ?? null,
    recordModelCall: (call) => {
      insert.run({
        sessionId: call.sessionId,
        inboxId: call.inboxId ?? null,
        model: call.model,
        prompt: call.promptTokens,
        completion: call.completionTokens,
        cached: call.cachedTokens,
        now: clock.now(),
      });
    },
    sessionUsage: ({ sessionId, withChildren }) => {
      const record = withChildren === true ? sumWithChildren.get({ id: sessionId }) : sum.get(sessionId);
      return {
        calls: record?.calls ?? 0,
        unreported: record?.unreported ?? 0,
        promptTokens: record?.prompt_tokens ?? 0,
        completionTokens: record?.completion_tokens ?? 0,
        cachedTokens: record?.cached_tokens ?? 0,
      };
    },
  };
}
