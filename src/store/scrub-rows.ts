import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { ScrubBatch, ScrubbedPart, Store } from './types.js';

/** The stored-history scrubbing part of the Store. */
export type ScrubQueries = Pick<Store, 'scrubStoredBatch' | 'compactAfterScrub'>;

const toolCallsSchema = z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() }));

/** Every string inside a JSON value passed through `scrub` (keys too); the shape stays the same. */
function scrubJsonValue(value: unknown, scrub: (text: string) => string): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((item: unknown) => scrubJsonValue(item, scrub));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[scrub(key)] = scrubJsonValue(item, scrub);
    return out;
  }
  return value;
}

/** JSON text with every string in it scrubbed, still valid JSON; unparsable text is scrubbed as plain text. */
function scrubJsonText(params: { json: string; scrub: (text: string) => string }): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(params.json);
  } catch {
    return params.scrub(params.json);
  }
  return JSON.stringify(scrubJsonValue(parsed, params.scrub));
}

/** Stored tool calls with their arguments scrubbed (arguments that stop parsing become `{}`, as at insert). */
function scrubToolCalls(params: { json: string; scrub: (text: string) => string }): string {
  let calls: z.infer<typeof toolCallsSchema>;
  try {
    calls = toolCallsSchema.parse(JSON.parse(params.json));
  } catch {
    return scrubJsonText(params);
  }
  const scrubbed = calls.map((call) => {
    const args = params.scrub(call.arguments);
    if (args === call.arguments) return call;
    try {
      JSON.parse(args);
      return { ...call, arguments: args };
    } catch {
      return { ...call, arguments: '{}' };
    }
  });
  return JSON.stringify(scrubbed);
}

interface MessageText {
  rid: number;
  content: string;
  tool_calls_json: string | null;
}
interface TitleText {
  rid: number;
  title: string | null;
}
interface JobText {
  id: string;
  name: string;
  prompt: string;
  script: string | null;
  last_outcome: string | null;
}
interface RunText {
  rid: number;
  error: string | null;
}
interface DeliveryText {
  target: string;
  error: string | null;
}
interface EventText {
  rid: number;
  event_json: string;
}

/** Scrubs one batch of one part: the rows after `afterRowId`, at most `limit` (at least 1). */
type PartScrubber = (params: { afterRowId: number; limit: number; scrub: (text: string) => string }) => ScrubBatch;

/** Message content and tool-call arguments (the FTS index follows through its update trigger). */
function messageScrubber(params: { db: Database.Database }): PartScrubber {
  const { db } = params;
  const messages = db.prepare<[number, number], MessageText>(
    'SELECT rowid AS rid, content, tool_calls_json FROM messages WHERE rowid > ? ORDER BY rowid LIMIT ?',
  );
  const setMessage = db.prepare<{ rowid: number; content: string; toolCalls: string | null }>(
    'UPDATE messages SET content = @content, tool_calls_json = @toolCalls WHERE rowid = @rowid',
  );
  return ({ afterRowId, limit, scrub }) => {
    let changed = 0;
    let lastRowId: number | null = null;
    for (const row of messages.all(afterRowId, limit)) {
      lastRowId = row.rid;
      const content = scrub(row.content);
      const toolCalls = row.tool_calls_json === null ? null : scrubToolCalls({ json: row.tool_calls_json, scrub });
      if (content === row.content && toolCalls === row.tool_calls_json) continue;
      setMessage.run({ rowid: row.rid, content, toolCalls });
      changed++;
    }
    return { lastRowId, changed };
  };
}

/** Session titles. */
function titleScrubber(params: { db: Database.Database }): PartScrubber {
  const { db } = params;
  const titles = db.prepare<[number, number], TitleText>('SELECT rowid AS rid, title FROM sessions WHERE rowid > ? ORDER BY rowid LIMIT ?');
  const setTitle = db.prepare<{ rowid: number; title: string }>('UPDATE sessions SET title = @title WHERE rowid = @rowid');
  return ({ afterRowId, limit, scrub }) => {
    let changed = 0;
    let lastRowId: number | null = null;
    for (const row of titles.all(afterRowId, limit)) {
      lastRowId = row.rid;
      if (row.title === null) continue;
      const title = scrub(row.title);
      if (title === row.title) continue;
      setTitle.run({ rowid: row.rid, title });
      changed++;
    }
    return { lastRowId, changed };
  };
}

/** Jobs' name, prompt, script and last outcome; `afterRowId` counts the jobs looked at so far (jobs has no rowid). */
function jobScrubber(params: { db: Database.Database }): PartScrubber {
  const { db } = params;
  // jobs has no rowid: its batches page by position in id order (ids never change, so the order is stable).
  const jobs = db.prepare<[number, number], JobText>('SELECT id, name, prompt, script, last_outcome FROM jobs ORDER BY id LIMIT ? OFFSET ?');
  const setJob = db.prepare<{ id: string; name: string; prompt: string; script: string | null; lastOutcome: string | null }>(
    'UPDATE jobs SET name = @name, prompt = @prompt, script = @script, last_outcome = @lastOutcome WHERE id = @id',
  );
  return ({ afterRowId, limit, scrub }) => {
    let changed = 0;
    let lastRowId: number | null = null;
    const rows = jobs.all(limit, afterRowId);
    if (rows.length > 0) lastRowId = afterRowId + rows.length;
    for (const row of rows) {
      const next = { id: row.id, name: scrub(row.name), prompt: scrub(row.prompt), script: row.script === null ? null : scrub(row.script), lastOutcome: row.last_outcome === null ? null : scrub(row.last_outcome) };
      if (next.name === row.name && next.prompt === row.prompt && next.script === row.script && next.lastOutcome === row.last_outcome) continue;
      setJob.run(next);
      changed++;
    }
    return { lastRowId, changed };
  };
}

/** The errors of job runs and of their deliveries. */
function runScrubber(params: { db: Database.Database }): PartScrubber {
  const { db } = params;
  const runs = db.prepare<[number, number], RunText>('SELECT id AS rid, error FROM job_runs WHERE id > ? ORDER BY id LIMIT ?');
  const setRun = db.prepare<{ rowid: number; error: string }>('UPDATE job_runs SET error = @error WHERE id = @rowid');
  const deliveries = db.prepare<[number], DeliveryText>('SELECT target, error FROM job_deliveries WHERE run_id = ? AND error IS NOT NULL');
  const setDelivery = db.prepare<{ runId: number; target: string; error: string }>(
    'UPDATE job_deliveries SET error = @error WHERE run_id = @runId AND target = @target',
  );
  return ({ afterRowId, limit, scrub }) => {
    let changed = 0;
    let lastRowId: number | null = null;
    for (const row of runs.all(afterRowId, limit)) {
      lastRowId = row.rid;
      if (row.error !== null) {
        const error = scrub(row.error);
        if (error !== row.error) {
          setRun.run({ rowid: row.rid, error });
          changed++;
        }
      }
      for (const delivery of deliveries.all(row.rid)) {
        const error = delivery.error === null ? null : scrub(delivery.error);
        if (error === null || error === delivery.error) continue;
        setDelivery.run({ runId: row.rid, target: delivery.target, error });
        changed++;
      }
    }
    return { lastRowId, changed };
  };
}

/** The raw journal of answered inbox rows (a replay only reads rows not done). */
function eventScrubber(params: { db: Database.Database }): PartScrubber {
  const { db } = params;
  const events = db.prepare<[number, number], EventText>(
    "SELECT rowid AS rid, event_json FROM inbox WHERE rowid > ? AND state = 'done' ORDER BY rowid LIMIT ?",
  );
  const setEvent = db.prepare<{ rowid: number; event: string }>("UPDATE inbox SET event_json = @event WHERE rowid = @rowid AND state = 'done'");
  return ({ afterRowId, limit, scrub }) => {
    let changed = 0;
    let lastRowId: number | null = null;
    for (const row of events.all(afterRowId, limit)) {
      lastRowId = row.rid;
      const event = scrubJsonText({ json: row.event_json, scrub });
      if (event === row.event_json) continue;
      setEvent.run({ rowid: row.rid, event });
      changed++;
    }
    return { lastRowId, changed };
  };
}

/** Runs `work` with SQLite's secure_delete on (deleted content is overwritten), then puts the setting back as it was. */
function withSecureDelete<T>(params: { db: Database.Database; work: () => T }): T {
  const { db, work } = params;
  const previous = db.pragma('secure_delete', { simple: true });
  db.pragma('secure_delete = ON');
  try {
    return work();
  } finally {
    db.pragma(`secure_delete = ${previous === 1 ? 'ON' : 'OFF'}`);
  }
}

/**
 * Prepares the statements that rewrite stored rows with secrets scrubbed: messages (content and tool-call
 * arguments; the FTS index follows through its update trigger), session titles, the raw journal of answered
 * inbox rows (a replay only reads rows not done), jobs (name, prompt, script, last outcome) and the errors of job
 * runs and their deliveries. Each batch runs in one transaction with secure_delete on, so the
 * old text is overwritten in the database pages rather than left in free space.
 */
export function createScrubQueries(params: { db: Database.Database }): ScrubQueries {
  const { db } = params;
  const scrubMessages = messageScrubber({ db });
  const scrubTitles = titleScrubber({ db });
  const scrubJobs = jobScrubber({ db });
  const scrubRuns = runScrubber({ db });
  const scrubEvents = eventScrubber({ db });

  /** Scrubs one batch of `part`; returns the last rowid looked at and how many rows changed. */
  const batch = (params: { part: ScrubbedPart; afterRowId: number; limit: number; scrub: (text: string) => string }): ScrubBatch => {
    const { part, afterRowId, scrub } = params;
    const limit = Math.max(1, Math.floor(params.limit));
    if (part === 'messages') return scrubMessages({ afterRowId, limit, scrub });
    if (part === 'sessions') return scrubTitles({ afterRowId, limit, scrub });
    if (part === 'jobs') return scrubJobs({ afterRowId, limit, scrub });
    if (part === 'job_runs') return scrubRuns({ afterRowId, limit, scrub });
    return scrubEvents({ afterRowId, limit, scrub });
  };
  const inTransaction = db.transaction(batch);

  return {
    scrubStoredBatch: (input) => withSecureDelete({ db, work: () => inTransaction(input) }),
    compactAfterScrub: () => {
      // Rebuilt segments hold no trace of the old tokens; the checkpoint moves the rewritten pages out of the WAL.
      withSecureDelete({ db, work: () => db.prepare("INSERT INTO messages_fts (messages_fts) VALUES ('optimize')").run() });
      db.pragma('wal_checkpoint(TRUNCATE)');
    },
  };
}
