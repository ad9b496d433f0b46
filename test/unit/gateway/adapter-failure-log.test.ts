import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { pino, type Level } from 'pino';
import { DiscordAdapter } from '../../../adapters/discord/adapter.js';
import { IDENTIFY_TIMEOUT_MS, SlackAdapter } from '../../../adapters/slack/adapter.js';
import { TelegramAdapter } from '../../../adapters/telegram/adapter.js';
import { discordSchema } from '../../../adapters/discord/config-schema.js';
import { slackSchema } from '../../../adapters/slack/config-schema.js';
import type { PlatformAdapter } from '../../../src/core/adapter.js';
import { AdapterSupervisor, type AdapterState } from '../../../src/gateway/runtime/supervisor.js';
import { FakeTelegram } from '../../fakes/telegram/index.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { blackHole } from '../../helpers/black-hole.js';
import { closedPort } from '../../helpers/ports.js';
import { telegramConfig, testToken } from '../../helpers/telegram.js';

/** A logger whose JSON lines are kept in `lines`. */
function capturingLogger(params: { level: Level }): { logger: pino.Logger; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done): void {
      lines.push(...chunk.toString().split('\n').filter((line) => line !== ''));
      done();
    },
  });
  return { logger: pino({ level: params.level }, stream), lines };
}

/** Runs `adapter` under a supervisor (fake clock: no restart happens) until it reaches `state`; its log lines and status. */
async function superviseUntil(params: { adapter: PlatformAdapter; state: AdapterState; level: Level }): Promise<{ lines: string[]; lastError: string | null }> {
  const { logger, lines } = capturingLogger({ level: params.level });
  const supervisor = new AdapterSupervisor({
    adapter: params.adapter,
    emit: async () => undefined,
    storage: { get: () => undefined, set: () => undefined },
    mayTalk: () => true,
    choose: async () => ({}),
    clock: new FakeClock(),
    logger,
  });
  const controller = new AbortController();
  const run = supervisor.run({ signal: controller.signal });
  for (let i = 0; i < 500 && supervisor.status().state !== params.state; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(supervisor.status().state, params.state);
  const lastError = supervisor.status().lastError;
  controller.abort();
  await run;
  return { lines, lastError };
}

function telegramAt(params: { apiRoot: string; cacheDir: string }): TelegramAdapter {
  return new TelegramAdapter({ config: telegramConfig({ apiRoot: params.apiRoot }), cacheDir: params.cacheDir, clock: new FakeClock(), logger: pino({ level: 'silent' }) });
}

test('Telegram against a refused port: one warn line naming "connection refused 127.0.0.1:<port>", no stack; status says the cause', async () => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'hermes-refused-'));
  try {
    const port = await closedPort();
    const { lines, lastError } = await superviseUntil({ adapter: telegramAt({ apiRoot: `http://127.0.0.1:${port}`, cacheDir }), state: 'backing-off', level: 'info' });
    const failures = lines.filter((line) => line.includes('adapter failed'));
    assert.equal(failures.length, 1, lines.join('\n'));
    const record = JSON.parse(failures[0] ?? '{}') as { msg: string; cause: string; level: number };
    assert.match(record.msg, new RegExp(`^adapter failed: connection refused 127\\.0\\.0\\.1:${port}; restarting in [0-9.]+s$`));
    assert.equal(record.cause, `connection refused 127.0.0.1:${port}`);
    assert.equal(record.level, 40);
    assert.ok(!lines.some((line) => line.includes('"stack"')), 'a stack was logged');
    assert.match(lastError ?? '', new RegExp(`connection refused 127\\.0\\.0\\.1:${port}`));
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

test('Slack and Discord against a refused port: one warn line each with the cause, no stack', async () => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'hermes-refused-'));
  try {
    const port = await closedPort();
    const root = `http://127.0.0.1:${port}/api`;
    const quiet = pino({ level: 'silent' });
    const adapters: PlatformAdapter[] = [
      new SlackAdapter({ config: slackSchema.parse({ enabled: true, bot_token: 'xoxb-test', app_token: 'xapp-test', api_url: `${root}/` }), cacheDir, clock: new FakeClock(), logger: quiet }),
      new DiscordAdapter({ config: discordSchema.parse({ enabled: true, token: 'MTAw.test.token', api_url: root }), cacheDir, clock: new FakeClock(), logger: quiet }),
    ];
    for (const adapter of adapters) {
      const { lines, lastError } = await superviseUntil({ adapter, state: 'backing-off', level: 'info' });
      const failures = lines.filter((line) => line.includes('adapter failed'));
      assert.equal(failures.length, 1, `${adapter.name}: ${lines.join('\n')}`);
      assert.match(failures[0] ?? '', new RegExp(`"msg":"adapter failed: connection refused 127\\.0\\.0\\.1:${port}; restarting`));
      assert.ok(!lines.some((line) => line.includes('"stack"')), `${adapter.name} logged a stack`);
      assert.match(lastError ?? '', /connection refused/);
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

test('Slack whose API takes the connection and never answers: auth.test times out, one warn line with the cause, no stack', async () => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'hermes-silent-'));
  const hole = await blackHole();
  try {
    const clock = new FakeClock();
    const adapter = new SlackAdapter({ config: slackSchema.parse({ enabled: true, bot_token: 'xoxb-test', app_token: 'xapp-test', api_url: `http://127.0.0.1:${hole.port}/api/` }), cacheDir, clock, logger: pino({ level: 'silent' }) });
    const supervised = superviseUntil({ adapter, state: 'backing-off', level: 'info' });
    for (let i = 0; i < 500 && (hole.connections() === 0 || clock.pending === 0); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(hole.connections(), 1, 'auth.test reached the silent server');
    await clock.advance(IDENTIFY_TIMEOUT_MS);
    const { lines, lastError } = await supervised;
    const failures = lines.filter((line) => line.includes('adapter failed'));
    assert.equal(failures.length, 1, lines.join('\n'));
    const record = JSON.parse(failures[0] ?? '{}') as { msg: string; cause: string; level: number };
    assert.equal(record.cause, `timed out 127.0.0.1:${hole.port}`);
    assert.match(record.msg, new RegExp(`^adapter failed: timed out 127\\.0\\.0\\.1:${hole.port}; restarting in`));
    assert.equal(record.level, 40);
    assert.ok(!lines.some((line) => line.includes('"stack"')), 'a stack was logged');
    assert.match(lastError ?? '', /auth\.test got no answer within 30s/);
  } finally {
    await hole.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

test('at level debug the same failure also carries the error with its stack', async () => {
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'hermes-refused-'));
  try {
    const port = await closedPort();
    const { lines } = await superviseUntil({ adapter: telegramAt({ apiRoot: `http://127.0.0.1:${port}`, cacheDir }), state: 'backing-off', level: 'debug' });
    const failure = lines.find((line) => line.includes('adapter failed')) ?? '';
    assert.match(failure, /"stack"/);
    assert.match(failure, /"cause":"connection refused/);
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

test('Telegram rejecting the token (401): one error line with the reason and the hint, no stack', async () => {
  const fake = new FakeTelegram({ token: `${testToken}-other` });
  await fake.start();
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'hermes-401-'));
  try {
    const { lines, lastError } = await superviseUntil({ adapter: telegramAt({ apiRoot: fake.apiRoot, cacheDir }), state: 'fatal', level: 'info' });
    const failures = lines.filter((line) => line.includes('adapter failed'));
    assert.equal(failures.length, 1, lines.join('\n'));
    const record = JSON.parse(failures[0] ?? '{}') as { msg: string; hint: string; level: number };
    assert.equal(record.msg, 'adapter failed and will not be restarted: Telegram rejected the bot token (401 Unauthorized)');
    assert.match(record.hint, /platforms\.telegram\.token/);
    assert.equal(record.level, 50);
    assert.ok(!lines.some((line) => line.includes('"stack"')), 'a stack was logged');
    assert.match(lastError ?? '', /401 Unauthorized/);
  } finally {
    await fake.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

test('an unexpected failure (a bug) keeps its stack in the log line', async () => {
  const adapter: PlatformAdapter = {
    name: 'buggy',
    capabilities: { edit: false, threads: false, typing: false, reactions: false, media: false, maxMessageLength: 100, markup: 'none' },
    start: async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'id')");
    },
    send: async () => ({ messageId: '1' }),
    edit: async () => undefined,
  };
  const { lines, lastError } = await superviseUntil({ adapter, state: 'backing-off', level: 'info' });
  const failure = lines.find((line) => line.includes('adapter failed')) ?? '';
  assert.match(failure, /"stack":"TypeError: Cannot read properties/);
  assert.match(failure, /"msg":"adapter failed; restarting in/);
  assert.equal(lastError, "Cannot read properties of undefined (reading 'id')");
});
