import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunFigures } from './stats.js';

/**
 * The floor to compare against: a bare fastify route that inserts each message into SQLite (WAL) and answers.
 * Same message count and concurrency as the gateway run.
 */
export async function runBaseline(params: { messages: number; concurrency: number }): Promise<RunFigures> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-bench-base-'));
  const db = new Database(path.join(dir, 'base.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE inbox (id INTEGER PRIMARY KEY, platform TEXT, message_id TEXT, body TEXT, UNIQUE(platform, message_id))');
  const insert = db.prepare('INSERT INTO inbox (platform, message_id, body) VALUES (?, ?, ?) ON CONFLICT DO NOTHING');
  const app = Fastify({ logger: false });
  app.post<{ Body: { id: string; text: string } }>('/message', async (request) => {
    insert.run('bench', request.body.id, JSON.stringify(request.body));
    return { ok: true };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  const url = `http://127.0.0.1:${address.port}/message`;
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < params.messages) {
      const id = next++;
      const t0 = performance.now();
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `m${id}`, text: 'hello' }) });
      await response.arrayBuffer();
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: params.concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  await app.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
  return { name: 'baseline: fastify + SQLite insert', messages: params.messages, seconds, latenciesMs: latencies };
}
