import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import type { AdapterStartParams, PlatformAdapter } from '../../../src/core/adapter.js';
import { AdapterFatalError } from '../../../src/core/errors.js';
import { AdapterSupervisor } from '../../../src/gateway/runtime/supervisor.js';
import { FakeClock, flushMicrotasks } from '../../helpers/fake-clock.js';

function adapter(start: (p: AdapterStartParams) => Promise<void>): PlatformAdapter {
  return {
    name: 'flaky',
    capabilities: { edit: true, threads: false, typing: false, reactions: false, media: false, maxMessageLength: 100, markup: 'none' },
    start,
    send: async () => ({ messageId: '1' }),
    edit: async () => undefined,
  };
}

test('a crashing adapter is restarted with growing backoff and reports its state', async () => {
  const clock = new FakeClock();
  let starts = 0;
  const startedAt: number[] = [];
  const sup = new AdapterSupervisor({
    adapter: adapter(async (p) => {
      starts += 1;
      startedAt.push(clock.now());
      if (starts <= 3) throw new Error(`boom ${starts}`);
      p.report({ state: 'connected' });
      await new Promise<void>((r) => p.signal.addEventListener('abort', () => r(), { once: true }));
    }),
    emit: async () => undefined,
    storage: { get: () => undefined, set: () => undefined },
    mayTalk: () => true, choose: async () => ({}),
    clock,
    logger: pino({ level: 'silent' }),
    backoff: { baseMs: 1000, maxMs: 10_000 },
  });
  const controller = new AbortController();
  const run = sup.run({ signal: controller.signal });
  await flushMicrotasks();
  assert.equal(sup.status().state, 'backing-off');
  assert.equal(sup.status().lastError, 'boom 1');
  for (let i = 0; i < 40 && sup.status().state !== 'connected'; i++) await clock.advance(500);
  assert.equal(sup.status().state, 'connected');
  assert.equal(starts, 4);
  assert.equal(sup.status().restarts, 3);
  const gaps = startedAt.slice(1).map((t, i) => t - (startedAt[i] ?? 0));
  assert.ok((gaps[0] ?? 0) >= 500 && (gaps[0] ?? 0) <= 1000, `first backoff ${gaps[0]}`);
  assert.ok((gaps[2] ?? 0) >= 2000, `third backoff ${gaps[2]} should have grown`);
  controller.abort();
  await run;
  assert.equal(sup.status().state, 'stopped');
});

test('a fatal error stops restarts and keeps the hint', async () => {
  const clock = new FakeClock();
  let starts = 0;
  const sup = new AdapterSupervisor({
    adapter: adapter(async () => {
      starts += 1;
      throw new AdapterFatalError({ message: 'token rejected (401)', hint: 'check platforms.flaky.token' });
    }),
    emit: async () => undefined,
    storage: { get: () => undefined, set: () => undefined },
    mayTalk: () => true, choose: async () => ({}),
    clock,
    logger: pino({ level: 'silent' }),
  });
  await sup.run({ signal: new AbortController().signal });
  await clock.advance(120_000);
  assert.equal(starts, 1);
  assert.equal(sup.status().state, 'fatal');
  assert.match(sup.status().lastError ?? '', /token rejected.*platforms\.flaky\.token/);
});
