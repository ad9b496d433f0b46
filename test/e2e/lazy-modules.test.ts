import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { startCliGateway } from '../helpers/gateway-process.js';
import { testToken } from '../helpers/telegram.js';

/** Packages a Telegram-only profile with default settings must never load (each costs MBs of memory and ms of start-up). */
const unused = ['@slack/', 'discord.js', '@discordjs/', 'imapflow', 'mailparser', 'nodemailer', 'twilio', 'prom-client', 'pino-pretty', 'marked-terminal', 'gpt-tokenizer'];

test('a Telegram-only profile loads neither the other platforms\' SDKs nor the tokenizer, metrics or pretty-log packages, also after a turn; nor ICU\'s zones before it', { timeout: 60_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-lazy-'));
  const trace = path.join(home, 'modules.txt');
  const fake = new FakeTelegram({ token: testToken });
  const model = new FakeOpenAI();
  await Promise.all([fake.start(), model.start()]);
  model.setResponder(() => ({ text: 'Hello from hermes.' }));
  const dir = path.join(home, 'profiles', 'work');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'config.yaml'),
    stringify({
      model: { base_url: model.baseURL, api_key: 'sk-lazy-test' },
      gateway: { http: { port: 0 } },
      platforms: { telegram: { enabled: true, token: testToken, api_root: fake.apiRoot, allowed_users: ['@owner'], merge_window: '100ms' } },
    }),
  );
  const gateway = startCliGateway({ home, profile: 'work', nodeOptions: ['--import', './test/helpers/module-trace.mjs'], env: { MODULE_TRACE_FILE: trace } });
  const { output } = gateway;
  try {
    await fake.waitFor({ predicate: (f) => f.calls.some((c) => c.method === 'getUpdates'), timeoutMs: 30_000 }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${output()}`);
    });
    // Waiting for its first message, the gateway has not asked Intl for a time zone (ICU's data: ~8 MB of RSS).
    assert.ok(!readFileSync(trace, 'utf8').includes('intl:DateTimeFormat'), 'an Intl.DateTimeFormat was made before the first turn');
    fake.pushMessage({ chat: { id: 77, type: 'private' }, from: { id: 77, first_name: 'Owner', username: 'owner' }, text: 'hi' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(77).some((m) => m.shown === 'Hello from hermes.'), timeoutMs: 15_000 });
    gateway.proc.kill('SIGTERM');
    assert.equal(await gateway.exited, 0, output());
    const traced = readFileSync(trace, 'utf8').split('\n');
    // The check above can see one: the turn's system prompt tells the time in the host's zone.
    assert.ok(traced.includes('intl:DateTimeFormat'), 'the first turn made no Intl.DateTimeFormat: the check before it proves nothing');
    const loaded = traced.filter((line) => line.includes('node_modules'));
    // The trace works: what the profile does use is in it.
    for (const used of ['grammy', 'openai', 'better-sqlite3']) assert.ok(loaded.some((line) => line.includes(`/node_modules/${used}/`)), `${used} is not in the trace`);
    for (const name of unused) {
      const hits = loaded.filter((line) => line.includes(`/node_modules/${name}`));
      assert.deepEqual(hits, [], `${name} was loaded by a Telegram-only profile`);
    }
  } finally {
    if (gateway.alive()) gateway.proc.kill('SIGKILL');
    await Promise.all([fake.close(), model.close()]);
    rmSync(home, { recursive: true, force: true });
  }
});
