import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closedLoop, paced, type SendOne } from './load.js';
import type { RunFigures } from './stats.js';

/** The floor's server, running: `send` posts message n and resolves with its answer. */
interface BaselineServer {
  readonly send: SendOne;
  close(): Promise<void>;
}

/** A bare fastify route that inserts each message into SQLite (WAL, synchronous=NORMAL) and answers. */
async function startBaseline(): Promise<BaselineServer> {
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
  // Ids unique per server: a warm-up and the measured run on one server would otherwise collide.
  let sent = 0;
  return {
    send: async () => {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: `m${sent++}`, text: 'hello' }) });
      await response.arrayBuffer();
    },
    close: async () => {
      await app.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The floor to compare against: a bare fastify route that inserts each message into SQLite (WAL) and answers.
 * Same message count and concurrency as the gateway run.
 */
export async function runBaseline(params: { messages: number; concurrency: number }): Promise<RunFigures> {
  const server = await startBaseline();
  try {
    const run = await closedLoop({ ...params, send: server.send });
    return { name: 'baseline: fastify + SQLite insert', ...run };
  } finally {
    await server.close();
  }
}

/** The floor at a fixed arrival rate: `messages` requests at `perSecond` (after `warmup` unmeasured ones in closed loop). */
export async function runBaselinePaced(params: { messages: number; perSecond: number; warmup: number }): Promise<RunFigures & { lateMs: number }> {
  const server = await startBaseline();
  try {
    await closedLoop({ messages: params.warmup, concurrency: 10, send: server.send });
    const run = await paced({ messages: params.messages, perSecond: params.perSecond, send: server.send });
    return { name: `baseline at ${params.perSecond} msg/s`, ...run };
  } finally {
    await server.close();
  }
}
