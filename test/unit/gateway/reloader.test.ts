import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import { parse, stringify } from 'yaml';
import { GatewayReloader } from '../../../src/app/reload.js';
import { Redactor } from '../../../src/log/redact.js';
import { builtinTools } from '../../../src/tools/builtin/index.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { systemClock } from '../../../src/core/clock.js';
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

test('a prompt change on reload applies to sessions started after it (logged); a running session keeps its prompt', async () => {
  const { h, reloader, messages } = await setup();
  try {
    const systemOf = (i: number): string => String(h.fake.requests[i]?.body.messages?.[0]?.['content']);
    h.fake.enqueue({ text: 'one' }, { text: 'two' }, { text: 'three' });
    await h.adapter.inject({ text: 'before the reload' });
    await h.runner.waitIdle();
    const mine = parse(readFileSync(h.profile.configPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(h.profile.configPath, stringify({ ...mine, timezone: 'Asia/Tokyo', agent: { system_prompt: 'RELOADED-INSTRUCTION' } }));
    writeFileSync(h.profile.soulPath, 'You are the RELOADED soul.');
    const outcome = await reloader.request();
    assert.ok(outcome.ok, JSON.stringify(outcome));
    assert.ok(outcome.live.includes('timezone') && outcome.live.includes('agent.system_prompt') && outcome.live.includes('SOUL.md'), JSON.stringify(outcome.live));
    assert.deepEqual(outcome.restartNeeded, []);
    const line = messages.find((m) => m.startsWith('config reload: the system prompt changes'));
    assert.ok(line, messages.join('\n'));
    assert.match(line, /\(agent\.system_prompt, timezone, SOUL\.md\); sessions started from now on get the new one, running sessions keep theirs until \/new/);

    await h.adapter.inject({ text: 'same session after the reload' });
    await h.runner.waitIdle();
    assert.equal(systemOf(1), systemOf(0), 'the running session kept its prompt');
    assert.doesNotMatch(systemOf(1), /RELOADED/);

    await h.adapter.inject({ text: '/new' });
    await h.runner.waitIdle();
    await h.adapter.inject({ text: 'a new session' });
    await h.runner.waitIdle();
    assert.match(systemOf(2), /^You are the RELOADED soul\./);
    assert.match(systemOf(2), /RELOADED-INSTRUCTION/);
    assert.match(systemOf(2), /Asia\/Tokyo/);
  } finally {
    await h.stop();
  }
});
