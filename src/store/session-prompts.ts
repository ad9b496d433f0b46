import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { StoreDataError } from './errors.js';
import type { SessionPrompt, Store } from './types.js';

/** A session's stored prompt (migration 15: the prompts table, one row per distinct prompt). */
interface PromptRecord {
  id: number;
  text: string;
  layers_json: string;
  extra_tools_json: string | null;
}

const layersSchema = z.array(z.object({ name: z.string(), chars: z.number().int().nonnegative() }));

/** The key a stored prompt is kept under: sha256 over its text, layers and tools, each length-prefixed (hex). */
export function promptDigest(params: { text: string; layers: string; tools: string | null }): string {
  const hash = createHash('sha256');
  for (const part of [params.text, params.layers, params.tools ?? '']) hash.update(`${part.length}:`).update(part);
  return hash.update(params.tools === null ? 'n' : 't').digest('hex');
}

/** The session-prompt part of the Store. */
export type SessionPromptQueries = Pick<Store, 'sessionPrompt' | 'setSessionPrompt'>;

/**
 * Prepares the session-prompt statements once and returns the methods that use them. Sessions started within one
 * minute on one platform share their prompt's text, so it is stored once (by digest) and the session points at it.
 */
export function createSessionPromptQueries(params: { db: Database.Database }): SessionPromptQueries {
  const { db } = params;
  const read = db.prepare<[string], PromptRecord>(
    'SELECT p.id, p.text, p.layers_json, p.extra_tools_json FROM sessions s JOIN prompts p ON p.id = s.prompt_id WHERE s.id = ?',
  );
  const insert = db.prepare<{ digest: string; text: string; layers: string; tools: string | null }>(
    'INSERT INTO prompts (digest, text, layers_json, extra_tools_json) VALUES (@digest, @text, @layers, @tools) ON CONFLICT (digest) DO NOTHING',
  );
  const idOf = db.prepare<[string], number>('SELECT id FROM prompts WHERE digest = ?').pluck();
  const point = db.prepare<{ id: string; prompt: number }>('UPDATE sessions SET prompt_id = @prompt WHERE id = @id');
  const store = db.transaction((sessionId: string, prompt: SessionPrompt): void => {
    const layers = JSON.stringify(prompt.layers.map(({ name, chars }) => ({ name, chars })));
    const tools = prompt.extraTools ?? null;
    const digest = promptDigest({ text: prompt.text, layers, tools });
    insert.run({ digest, text: prompt.text, layers, tools });
    const id = idOf.get(digest);
    if (id === undefined) throw new Error(`the prompt of session ${sessionId} was not stored`);
    if (point.run({ id: sessionId, prompt: id }).changes === 0) throw new Error(`cannot store the prompt of session ${sessionId}: no such session`);
  });
  return {
    sessionPrompt: ({ sessionId }) => {
      const record = read.get(sessionId);
      if (record === undefined) return undefined;
      let layers: SessionPrompt['layers'];
      try {
        layers = layersSchema.parse(JSON.parse(record.layers_json));
      } catch (cause) {
        throw new StoreDataError({ table: 'prompts', rowId: record.id, detail: 'layers_json is malformed', cause });
      }
      return { text: record.text, layers, ...(record.extra_tools_json === null ? {} : { extraTools: record.extra_tools_json }) };
    },
    setSessionPrompt: ({ sessionId, prompt }) => store(sessionId, prompt),
  };
}
