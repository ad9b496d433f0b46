import type Database from 'better-sqlite3';
import { z } from 'zod';
import { StoreDataError } from './errors.js';
import type { SessionPrompt, Store } from './types.js';

/** The prompt columns of a sessions row. */
interface PromptRecord {
  rowid: number;
  system_prompt: string | null;
  prompt_layers_json: string | null;
  extra_tools_json: string | null;
}

const layersSchema = z.array(z.object({ name: z.string(), chars: z.number().int().nonnegative() }));

/** The session-prompt part of the Store. */
export type SessionPromptQueries = Pick<Store, 'sessionPrompt' | 'setSessionPrompt'>;

/** Prepares the session-prompt statements once and returns the methods that use them. */
export function createSessionPromptQueries(params: { db: Database.Database }): SessionPromptQueries {
  const { db } = params;
  const read = db.prepare<[string], PromptRecord>('SELECT rowid, system_prompt, prompt_layers_json, extra_tools_json FROM sessions WHERE id = ?');
  const write = db.prepare<{ id: string; text: string; layers: string; tools: string | null }>(
    'UPDATE sessions SET system_prompt = @text, prompt_layers_json = @layers, extra_tools_json = @tools WHERE id = @id',
  );
  return {
    sessionPrompt: ({ sessionId }) => {
      const record = read.get(sessionId);
      if (record === undefined || record.system_prompt === null) return undefined;
      let layers: SessionPrompt['layers'] = [];
      if (record.prompt_layers_json !== null) {
        try {
          layers = layersSchema.parse(JSON.parse(record.prompt_layers_json));
        } catch (cause) {
          throw new StoreDataError({ table: 'sessions', rowId: record.rowid, detail: 'prompt_layers_json is malformed', cause });
        }
      }
      return { text: record.system_prompt, layers, ...(record.extra_tools_json === null ? {} : { extraTools: record.extra_tools_json }) };
    },
    setSessionPrompt: ({ sessionId, prompt }) => {
      const layers = JSON.stringify(prompt.layers.map(({ name, chars }) => ({ name, chars })));
      const { changes } = write.run({ id: sessionId, text: prompt.text, layers, tools: prompt.extraTools ?? null });
      if (changes === 0) throw new Error(`cannot store the prompt of session ${sessionId}: no such session`);
    },
  };
}
