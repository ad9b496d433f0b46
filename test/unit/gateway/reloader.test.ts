import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import { parse, stringify } from 'yaml';
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

test('a reload that would put this profile on another profile\'s bot account is refused and changes nothing', async () => {
  const { h, reloader } = await setup();
  try {
    const token = '123456:reload-clash-token';
    const other = path.join(h.profile.hermesHome, 'profiles', 'personal');
    mkdirSync(other, { recursive: true });
    writeFileSync(path.join(other, 'config.yaml'), stringify({ platforms: { telegram: { enabled: true, token } } }));
    const mine = parse(readFileSync(h.profile.configPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(h.profile.configPath, stringify({ ...mine, platforms: { telegram: { enabled: true, token, api_root: 'http://127.0.0.1:9' } } }));
    const outcome = await reloader.request();
    assert.equal(outcome.ok, false);
    assert.match(outcome.ok ? '' : outcome.error, /"test" and "personal" both use the same telegram account/);
    assert.ok(!(outcome.ok ? '' : outcome.error).includes(token), 'the token is never printed');
    assert.deepEqual(h.runner.adapterStatuses().map((s) => s.name), ['test'], 'no telegram adapter was started');
  } finally {
    await h.stop();
  }
});
