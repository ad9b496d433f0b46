import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { GatewayReloader } from '../../../src/gateway/reload.js';
import { Redactor } from '../../../src/log/redact.js';
import { builtinTools } from '../../../src/tools/builtin/index.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { systemClock } from '../../../src/util/clock.js';
import { startHarness, type Harness } from '../../helpers/harness.js';

/** A reloader for a harness gateway, and the messages it logged. */
async function setup(): Promise<{ h: Harness; reloader: GatewayReloader; messages: string[] }> {
  const messages: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void messages.push((JSON.parse(line) as { msg: string }).msg) });
  const h = await startHarness({ logger });
  const registry = new ToolRegistry();
  for (const tool of builtinTools()) registry.register(tool);
  const reloader = new GatewayReloader({ profile: h.profile, env: {}, config: h.config, runner: h.runner, http: undefined, registry, redactor: new Redactor({ secrets: [] }), logger, clock: systemClock });
  return { h, reloader, messages };
}

test('SIGHUPs during a reload are merged into one more reload, not one each', async () => {
  const { h, reloader, messages } = await setup();
  try {
    const first = reloader.request();
    const second = reloader.request();
    const third = reloader.request();
    assert.equal(second, third, 'requests during a reload share the next one');
    const outcomes = await Promise.all([first, second]);
    assert.ok(outcomes.every((o) => o.ok), JSON.stringify(outcomes));
    assert.equal(messages.filter((m) => m === 'reloading config').length, 2);
  } finally {
    await h.stop();
  }
});

test('close waits for the reload in progress, cancels the queued one and refuses new ones', async () => {
  const { h, reloader, messages } = await setup();
  try {
    const running = reloader.request();
    const queued = reloader.request();
    await reloader.close();
    assert.equal((await running).ok, true, 'the reload in progress finished');
    assert.deepEqual(await queued, { ok: false, error: 'the gateway is stopping; it reads the config again when it starts' });
    assert.equal((await reloader.request()).ok, false);
    assert.equal(messages.filter((m) => m === 'reloading config').length, 1);
  } finally {
    await h.stop();
  }
});
