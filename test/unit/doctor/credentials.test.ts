import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { discordCredentialCheck } from '../../../adapters/discord/check.js';
import { slackCredentialCheck } from '../../../adapters/slack/check.js';
import { telegramCredentialCheck } from '../../../adapters/telegram/check.js';
import { credentialLines } from '../../../src/doctor/platforms.js';
import { runDoctor } from '../../../src/doctor/run.js';
import { formatCheckLine } from '../../../src/core/check-line.js';
import { resolveProfile } from '../../../src/home/profile.js';
import type { CredentialCheck, PlatformBlock } from '../../../src/core/platform-descriptor.js';
import { systemClock } from '../../../src/core/clock.js';
import { FakeDiscord } from '../../fakes/discord/index.js';
import { FakeSlack } from '../../fakes/slack/index.js';
import { FakeTelegram } from '../../fakes/telegram/index.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { configOf } from './support.js';

const slack = new FakeSlack({ botToken: 'xoxb-good', appToken: 'xapp-good' });
const discord = new FakeDiscord({ token: 'discord-good' });
const telegram = new FakeTelegram({ token: '1:good' });
before(async () => {
  await Promise.all([slack.start(), discord.start(), telegram.start()]);
});
after(async () => {
  await Promise.all([slack.close(), discord.close(), telegram.close()]);
});
const signal = (): AbortSignal => new AbortController().signal;

test('telegram: getMe names the bot; a wrong token is refused with the 401', async () => {
  const good = await telegramCredentialCheck({ config: configOf({ platforms: { telegram: { enabled: true, token: '1:good', api_root: telegram.apiRoot } } }).platforms.telegram, signal: signal() });
  assert.deepEqual(good, { ok: true, detail: 'bot @hermes_test_bot (id 4242)' });
  const bad = await telegramCredentialCheck({ config: configOf({ platforms: { telegram: { enabled: true, token: '1:bad', api_root: telegram.apiRoot } } }).platforms.telegram, signal: signal() });
  assert.equal(bad.ok, false);
  assert.match(bad.detail, /rejected the bot token \(401/);
});

test('slack: auth.test with the bot token, apps.connections.open with the app token in socket mode', async () => {
  const block = (bot: string, app: string): unknown => ({ platforms: { slack: { enabled: true, bot_token: bot, app_token: app, api_url: slack.apiUrl } } });
  const good = await slackCredentialCheck({ config: configOf(block('xoxb-good', 'xapp-good')).platforms.slack, signal: signal() });
  assert.equal(good.ok, true, good.detail);
  assert.match(good.detail, /bot hermes in Fake Team; the app token opens Socket Mode/);
  const badBot = await slackCredentialCheck({ config: configOf(block('xoxb-bad', 'xapp-good')).platforms.slack, signal: signal() });
  assert.deepEqual([badBot.ok, badBot.detail], [false, 'Slack rejected the bot token (invalid_auth)']);
  assert.match(badBot.hint ?? '', /platforms\.slack\.bot_token/);
  const badApp = await slackCredentialCheck({ config: configOf(block('xoxb-good', 'xapp-bad')).platforms.slack, signal: signal() });
  assert.deepEqual([badApp.ok, badApp.detail], [false, 'Slack rejected the app-level token (invalid_auth)']);
});

test('discord: GET /users/@me names the bot; a wrong token is a 401', async () => {
  const block = (token: string): unknown => ({ platforms: { discord: { enabled: true, token, api_url: discord.apiBase } } });
  const good = await discordCredentialCheck({ config: configOf(block('discord-good')).platforms.discord, signal: signal() });
  assert.equal(good.ok, true, good.detail);
  assert.match(good.detail, /^bot hermes-test \(id \d+\)$/);
  const bad = await discordCredentialCheck({ config: configOf(block('discord-bad')).platforms.discord, signal: signal() });
  assert.deepEqual([bad.ok, bad.detail], [false, 'Discord rejected the bot token (401 Unauthorized)']);
});

test('credentialLines: enabled platforms only, "!" without a check, ✗ when a check overruns its time (injected clock)', async () => {
  const hangs: CredentialCheck<PlatformBlock> = () => new Promise(() => undefined); // ignores its signal, against the contract
  const clock = new FakeClock();
  const config = configOf({ platforms: { telegram: { enabled: true, token: 't' }, slack: { enabled: false }, discord: { enabled: true, token: 'd' } } });
  const pending = credentialLines({ config, clock, checks: { telegram: hangs, slack: hangs }, timeoutMs: 5_000 });
  await clock.advance(5_000);
  const lines = await pending;
  assert.deepEqual(lines.map((l) => `${l.status} ${l.name}`), ['fail telegram', 'warn discord']);
  assert.match(lines[0]?.detail ?? '', /no answer within 5s/);
  const none = await credentialLines({ config: configOf({}), clock: systemClock, checks: {} });
  assert.deepEqual(none.map((l) => `${l.status} ${l.name}: ${l.detail}`), ['warn platforms: none enabled']);
});

test('runDoctor: a check whose text quotes a secret of the profile is printed with "***" instead', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-doctor-scrub-'));
  try {
    const secret = '123456:LEAKY-SECRET-TOKEN';
    const profile = resolveProfile({ hermesHome: home, name: 'work' });
    mkdirSync(profile.dir, { recursive: true, mode: 0o700 });
    writeFileSync(profile.envPath, `TG_TOKEN=${secret}\n`, { mode: 0o600 });
    writeFileSync(profile.configPath, 'model:\n  base_url: http://127.0.0.1:9/v1\ngateway:\n  http:\n    port: 0\nplatforms:\n  telegram:\n    enabled: true\n    token: ${TG_TOKEN}\n  discord:\n    enabled: true\n    token: ${TG_TOKEN}-discord\n');
    const tokenOf = (config: PlatformBlock): string => ('token' in config && typeof config.token === 'string' ? config.token : '');
    const leaky: CredentialCheck<PlatformBlock> = async ({ config }) => ({ ok: false, detail: `GET https://api.example/bot${tokenOf(config)}/getMe failed`, hint: `check ${tokenOf(config)}` });
    const throws: CredentialCheck<PlatformBlock> = async ({ config }) => {
      throw new Error(`crashed with ${tokenOf(config)}`);
    };
    const printed: string[] = [];
    const lines = await runDoctor({ profile, env: { HOME: home }, clock: systemClock, checks: { telegram: leaky, discord: throws }, report: (check) => printed.push(formatCheckLine({ check })), modelTimeoutMs: 1_000 });
    assert.ok(!printed.join('\n').includes('LEAKY-SECRET'), printed.join('\n'));
    assert.equal(lines.find((l) => l.name === 'telegram')?.detail, 'GET https://api.example/bot***/getMe failed');
    assert.equal(lines.find((l) => l.name === 'telegram')?.fix, 'check ***');
    assert.match(lines.find((l) => l.name === 'discord')?.detail ?? '', /crashed with \*\*\*/);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
