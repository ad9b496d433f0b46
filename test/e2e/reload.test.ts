import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { FakeDiscord } from '../fakes/discord/index.js';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { cli } from '../helpers/cli.js';
import { discordToken, testGuild } from '../helpers/discord.js';
import { nodeArgsFor } from '../helpers/entry.js';
import { testToken } from '../helpers/telegram.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const owner = { id: 77, first_name: 'Owner', username: 'owner' };
const friend = { id: 88, first_name: 'Friend', username: 'friend' };

/** config.yaml of the test profile; `telegramAllowed` is the part the tests change. */
function config(params: { model: FakeOpenAI; telegram: FakeTelegram; discord: FakeDiscord; telegramAllowed: string[] }): string {
  return stringify({
    model: { base_url: params.model.baseURL, api_key: '${MODEL_KEY}', name: 'reload-model' },
    gateway: { http: { port: 0 }, drain_timeout: '10s' },
    stream: { edit_interval: '250ms' },
    platforms: {
      telegram: { enabled: true, token: '${TELEGRAM_BOT_TOKEN}', api_root: params.telegram.apiRoot, allowed_users: params.telegramAllowed, unauthorized: 'ignore', merge_window: '0s' },
      discord: { enabled: true, token: discordToken, api_url: params.discord.apiBase, allowed_users: ['200000000000000001'], unauthorized: 'ignore' },
    },
  });
}

describe('config reload of a running gateway (SIGHUP, hermes gateway reload)', { timeout: 90_000 }, () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-reload-'));
  const dir = path.join(home, 'profiles', 'work');
  const env = { HERMES_HOME: home, HOME: home };
  const telegram = new FakeTelegram({ token: testToken });
  const discord = new FakeDiscord({ token: discordToken, guilds: [testGuild] });
  const model = new FakeOpenAI();
  let child: ChildProcess | undefined;
  let output = '';
  let exited: Promise<number | null> = Promise.resolve(null);
  const log = (): string => readFileSync(path.join(dir, 'logs', 'gateway.log'), 'utf8');
  const answered = (chatId: number, text: string): boolean => telegram.chatMessages(chatId).some((m) => m.shown === text);

  before(async () => {
    await Promise.all([telegram.start(), discord.start(), model.start()]);
    model.setResponder((req) => ({ text: `answer ${req.body.messages?.length ?? 0}` }));
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, '.env'), `TELEGRAM_BOT_TOKEN=${testToken}\nMODEL_KEY=sk-reload-test-key\n`);
    writeFileSync(path.join(dir, 'config.yaml'), config({ model, telegram, discord, telegramAllowed: ['@owner'] }));
    child = spawn(process.execPath, [...nodeArgsFor('src/cli/main.ts'), '-p', 'work', 'gateway', 'run'], {
      cwd: root,
      env: { PATH: process.env['PATH'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const proc = child;
    exited = new Promise((resolve) => proc.once('exit', (code) => resolve(code)));
    await telegram.waitFor({ predicate: (f) => f.callsTo('getUpdates').length > 0, timeoutMs: 30_000 }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${output}`);
    });
    await discord.waitFor({ predicate: () => discord.sessions > 0, what: 'the discord session', timeoutMs: 10_000 });
  });

  after(async () => {
    child?.kill('SIGTERM');
    const code = await exited;
    await Promise.all([telegram.close(), discord.close(), model.close()]);
    rmSync(home, { recursive: true, force: true });
    assert.equal(code, 0, `the gateway did not drain and exit cleanly\n${output}`);
  });

  test('a changed telegram section restarts only telegram (discord keeps its connection); a turn in flight finishes; the change takes effect', async () => {
    telegram.pushMessage({ chat: { id: friend.id, type: 'private' }, from: friend, text: 'hello?' });
    telegram.pushMessage({ chat: { id: owner.id, type: 'private' }, from: owner, text: 'first' });
    await telegram.waitFor({ predicate: () => answered(owner.id, 'answer 2'), timeoutMs: 15_000 });
    assert.equal(telegram.chatMessages(friend.id).length, 0, 'the friend is not allowed yet');
    const getMes = telegram.callsTo('getMe').length;

    // A slow answer is streaming while the reload happens: it must finish in place on the old adapter.
    const words = Array.from({ length: 24 }, (_, i) => `w${i}`);
    model.enqueue({ chunks: words.map((w) => `${w} `), chunkDelayMs: 60 });
    telegram.pushMessage({ chat: { id: owner.id, type: 'private' }, from: owner, text: 'count slowly' });
    await telegram.waitFor({ predicate: () => telegram.chatMessages(owner.id).length === 2, timeoutMs: 10_000 });
    writeFileSync(path.join(dir, 'config.yaml'), config({ model, telegram, discord, telegramAllowed: ['@owner', '@friend'] }));
    const res = await cli({ argv: ['-p', 'work', 'gateway', 'reload'], env });
    assert.equal(res.code, 0, `${res.stdout}${res.stderr}\n${output}`);
    assert.match(res.stdout, /reloaded: restarted telegram; kept running discord/);

    const streamed = telegram.chatMessages(owner.id)[1];
    assert.equal(streamed?.shown, words.join(' '), 'the turn in flight was finished in place before the adapter was replaced');
    assert.equal(telegram.chatMessages(owner.id).length, 2);
    await telegram.waitFor({ predicate: (f) => f.callsTo('getMe').length > getMes, timeoutMs: 10_000 });
    telegram.pushMessage({ chat: { id: friend.id, type: 'private' }, from: friend, text: 'now?' });
    await telegram.waitFor({ predicate: () => telegram.chatMessages(friend.id).length === 1, timeoutMs: 15_000 });
    assert.equal(discord.identifies, 1, 'discord was not reconnected');
    assert.equal(discord.resumes, 0, 'discord was not resumed either');
    assert.match(log(), /config reloaded: restarted telegram; kept running discord/);
    assert.doesNotMatch(log(), /sk-reload-test-key|TEST-token/);
  });

  test('an invalid config is refused: the error names the key, the old config stays in force and the gateway still answers', async () => {
    const before = telegram.chatMessages(owner.id).length;
    const getMes = telegram.callsTo('getMe').length;
    writeFileSync(path.join(dir, 'config.yaml'), `${config({ model, telegram, discord, telegramAllowed: ['@owner'] })}agent:\n  max_iterations: lots\n`);
    const res = await cli({ argv: ['-p', 'work', 'gateway', 'reload'], env });
    assert.equal(res.code, 78, `${res.stdout}${res.stderr}`);
    assert.match(res.stderr, /agent\.max_iterations/);
    assert.match(log(), /config reload failed: .*agent\.max_iterations.*previous config/);
    telegram.pushMessage({ chat: { id: friend.id, type: 'private' }, from: friend, text: 'still there?' });
    await telegram.waitFor({ predicate: () => telegram.chatMessages(friend.id).length === 2, timeoutMs: 15_000 });
    assert.equal(telegram.chatMessages(owner.id).length, before);
    assert.equal(telegram.callsTo('getMe').length, getMes, 'no adapter was restarted');
    assert.equal(discord.identifies, 1);
  });
});

test('hermes gateway reload without a running gateway says so (exit 1)', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-reload-off-'));
  try {
    const res = await cli({ argv: ['-p', 'default', 'gateway', 'reload'], env: { HERMES_HOME: home, HOME: home } });
    assert.equal(res.code, 1);
    assert.match(res.stderr, /the gateway for profile "default" is not running/);
    assert.match(res.stderr, /gateway run/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
