import assert from 'node:assert/strict';
import { pino, type Logger } from 'pino';
import type { GatewayRunner } from '../../src/gateway/runtime/runner.js';
import type { FakeOpenAI } from '../fakes/openai/server.js';
import { pool } from './fuzz.js';

/** Log lines captured from a gateway, parsed. */
export interface CapturedLogs {
  readonly logger: Logger;
  readonly lines: Record<string, unknown>[];
}

/** A pino logger (info and up) whose lines are kept in memory. */
export function captureLogs(): CapturedLogs {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

/** Posts `count` payloads (`send` returns the HTTP status), a few at a time; every status must be 2xx or 4xx. */
export async function fuzzRoute(params: { count: number; send: (index: number) => Promise<{ status: number; what: string }> }): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  const bad: string[] = [];
  await pool({
    count: params.count,
    concurrency: 8,
    work: async (index) => {
      const { status, what } = await params.send(index);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status < 200 || status >= 500 || (status >= 300 && status < 400)) bad.push(`#${index} → ${status}: ${what.slice(0, 300)}`);
    },
  });
  assert.deepEqual(bad.slice(0, 5), [], `${bad.length} of ${params.count} payloads got neither 2xx nor 4xx`);
  return statuses;
}

/** No error-level line (fatal included) was logged. */
export function assertNoErrorLines(params: { lines: readonly Record<string, unknown>[] }): void {
  const errors = params.lines.filter((line) => typeof line['level'] === 'number' && line['level'] >= 50);
  assert.deepEqual(errors.slice(0, 3).map((line) => JSON.stringify(line).slice(0, 400)), [], `${errors.length} error lines`);
}

/** Resolves once every one of `texts` was sent to the model (in some request's conversation). */
export async function untilModelSaw(params: { fake: FakeOpenAI; texts: readonly string[]; timeoutMs?: number }): Promise<void> {
  const deadline = Date.now() + (params.timeoutMs ?? 20_000);
  for (;;) {
    const seen = params.fake.requests.map((request) => JSON.stringify(request.body.messages ?? [])).join('\n');
    const missing = params.texts.filter((text) => !seen.includes(text));
    if (missing.length === 0) return;
    if (Date.now() > deadline) assert.fail(`the model never saw ${missing.length} well-formed messages, e.g. ${missing[0]}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Resolves once the gateway reports the adapter `name` connected. */
export async function untilConnected(params: { runner: GatewayRunner; name: string; timeoutMs?: number }): Promise<void> {
  const deadline = Date.now() + (params.timeoutMs ?? 10_000);
  while (params.runner.adapterStatuses().find((status) => status.name === params.name)?.state !== 'connected') {
    if (Date.now() > deadline) assert.fail(`${params.name} never connected`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
