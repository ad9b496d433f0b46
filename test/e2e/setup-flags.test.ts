import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { FakeDiscord } from '../fakes/discord/index.js';
import { FakeSlack } from '../fakes/slack/index.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { FakeTwilio } from '../fakes/twilio/index.js';
import { cli } from '../helpers/cli.js';

const fake = new FakeOpenAI();
const telegram = new FakeTelegram({ token: '1:good' });
const slack = new FakeSlack({ botToken: 'xoxb-good', appToken: 'xapp-good' });
const discord = new FakeDiscord({ token: 'discord-good' });
const twilio = new FakeTwilio({ accountSid: 'AC0123456789abcdef', authToken: 'twilio-good' });
const root = mkdtempSync(path.join(os.tmpdir(), 'hermes-setup-'));
before(async () => {
  await Promise.all([fake.start(), telegram.start(), slack.start(), discord.start(), twilio.start()]);
  fake.models = ['fake-model', 'other-model'];
  fake.setResponder(() => ({ text: 'OK' }));
});
after(async () => {
  await Promise.all([fake.close(), telegram.close(), slack.close(), discord.close(), twilio.close()]);
  rmSync(root, { recursive: true, force: true });
});

let homes = 0;
/** A fresh HERMES_HOME (the default profile lives in it). */
function newHome(): { home: string; env: Record<string, string>; config: string; dotEnv: string } {
  const home = path.join(root, `home-${(homes += 1)}`);
  mkdirSync(home, { recursive: true });
  return { home, env: { HERMES_HOME: home, HOME: home }, config: path.join(home, 'config.yaml'), dotEnv: path.join(home, '.env') };
}

const KEY = 'sk-setup-secret-4711';

describe('hermes setup model (flags)', () => {
  test('writes base_url and model to config.yaml, the key to .env (0600) only; `config validate` accepts it; one test request', async () => {
    const { env, config, dotEnv } = newHome();
    const requestsBefore = fake.requests.length;
    const res = await cli({ argv: ['setup', 'model', '--base-url', fake.baseURL, '--api-key', KEY, '--model', 'fake-model', '--yes'], env });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /✓ fake-model at http:\/\/127\.0\.0\.1:\d+\/v1 answered in \d+ ms/);
    assert.ok(!res.stdout.includes(KEY) && !res.stderr.includes(KEY), 'the key is never printed');
    const yaml = readFileSync(config, 'utf8');
    assert.ok(!yaml.includes(KEY), 'the key is not in config.yaml');
    assert.match(yaml, new RegExp(`base_url: ${fake.baseURL.replace(/[/.]/g, '\\$&')}`));
    assert.match(yaml, /name: fake-model/);
    assert.match(yaml, /api_key: \$\{OPENAI_API_KEY\}/);
    assert.equal(statSync(dotEnv).mode & 0o777, 0o600);
    assert.match(readFileSync(dotEnv, 'utf8'), new RegExp(`^OPENAI_API_KEY=${KEY}$`, 'm'));
    const tests = fake.requests.slice(requestsBefore);
    assert.equal(tests.length, 1, 'exactly one tiny test request');
    assert.equal(tests[0]?.body.model, 'fake-model');
    assert.equal(tests[0]?.headers.authorization, `Bearer ${KEY}`);
    const valid = await cli({ argv: ['config', 'validate'], env });
    assert.equal(valid.code, 0, valid.stdout + valid.stderr);
    const show = await cli({ argv: ['config', 'show'], env });
    assert.ok(!show.stdout.includes(KEY));
  });

  test('re-running it keeps the owner\'s comments, other keys and the key; --api-key-env reads the key from $NAME', async () => {
    const { env, config, dotEnv } = newHome();
    writeFileSync(config, `# my own notes about this profile\nmodel:\n  # the model I like\n  name: fake-model\n  base_url: ${fake.baseURL}\nagent:\n  max_iterations: 7 # kept\n`);
    const first = await cli({ argv: ['setup', 'model', '--api-key-env', 'MY_KEY', '--yes'], env: { ...env, MY_KEY: KEY } });
    assert.equal(first.code, 0, first.stderr);
    assert.match(readFileSync(dotEnv, 'utf8'), new RegExp(`^MY_KEY=${KEY}$`, 'm'));
    const again = await cli({ argv: ['setup', 'model', '--model', 'other-model'], env });
    assert.equal(again.code, 0, again.stderr);
    const yaml = readFileSync(config, 'utf8');
    assert.match(yaml, /# my own notes about this profile/);
    assert.match(yaml, /# the model I like/);
    assert.match(yaml, /max_iterations: 7 # kept/);
    assert.match(yaml, /name: other-model/);
    assert.match(yaml, /api_key: \$\{MY_KEY\}/);
    assert.equal(fake.requests.at(-1)?.headers.authorization, `Bearer ${KEY}`, 'the key in .env is kept and used');
    assert.equal((await cli({ argv: ['config', 'validate'], env })).code, 0);
  });

  test('a base URL given as ${VAR} stays a reference when it is not changed', async () => {
    const { env, config, dotEnv } = newHome();
    writeFileSync(config, 'model:\n  base_url: ${MODEL_URL}\n  name: fake-model\n');
    writeFileSync(dotEnv, `MODEL_URL=${fake.baseURL}\n`, { mode: 0o600 });
    const res = await cli({ argv: ['setup', 'model', '--model', 'other-model', '--yes'], env });
    assert.equal(res.code, 0, res.stderr);
    assert.equal(readFileSync(config, 'utf8'), 'model:\n  base_url: ${MODEL_URL}\n  name: other-model\n');
  });

  test('a refused key: a clear error (exit 78) and nothing written', async () => {
    const { env, config, dotEnv } = newHome();
    fake.enqueue({ status: 401, errorMessage: 'Incorrect API key provided' });
    const res = await cli({ argv: ['setup', 'model', '--base-url', fake.baseURL, '--api-key', 'sk-wrong-key-1', '--model', 'fake-model', '--yes'], env });
    assert.equal(res.code, 78);
    assert.match(res.stderr, /refused the API key \(HTTP 401\); nothing was written/);
    assert.match(res.stderr, /hint: .*rerun `hermes setup model`/);
    assert.ok(!res.stderr.includes('sk-wrong-key-1'));
    const yaml = readFileSync(config, 'utf8');
    assert.match(yaml, /^# hermes profile config/, 'config.yaml is the template a fresh profile gets, untouched');
    assert.ok(!yaml.includes(fake.baseURL));
    assert.equal(existsSync(dotEnv), false);
  });

  test('usage errors are exit 64: a URL without a scheme, both key flags, bare `hermes setup` without a terminal', async () => {
    const { env } = newHome();
    const noScheme = await cli({ argv: ['setup', 'model', '--base-url', '127.0.0.1:18701/v1', '--model', 'm', '--yes'], env });
    assert.equal(noScheme.code, 64);
    assert.match(noScheme.stderr, /is not a URL; write it with its scheme/);
    const both = await cli({ argv: ['setup', 'model', '--api-key', 'a', '--api-key-env', 'B', '--yes'], env });
    assert.equal(both.code, 64);
    const bare = await cli({ argv: ['setup'], env });
    assert.equal(bare.code, 64);
    assert.match(bare.stderr, /hermes setup model --base-url URL/);
  });
});

describe('hermes setup <platform> (flags)', () => {
  test('telegram: the token checked with getMe, to .env; enabled with the owner in allowed_users; `config validate` accepts it', async () => {
    const { env, config, dotEnv } = newHome();
    const res = await cli({ argv: ['setup', 'telegram', '--token', '1:good', '--owner', '12345', '--api-root', telegram.apiRoot, '--yes'], env });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /✓ Telegram: bot @hermes_test_bot/);
    assert.ok(!res.stdout.includes('1:good'));
    const yaml = readFileSync(config, 'utf8');
    assert.ok(!yaml.includes('1:good'));
    assert.match(yaml, /token: \$\{TELEGRAM_BOT_TOKEN\}/);
    const block = (parse(yaml) as { platforms: { telegram: Record<string, unknown> } }).platforms.telegram;
    assert.deepEqual([block['enabled'], block['allowed_users'], block['api_root']], [true, ['12345'], telegram.apiRoot]);
    assert.match(readFileSync(dotEnv, 'utf8'), /^TELEGRAM_BOT_TOKEN=1:good$/m);
    assert.equal(statSync(dotEnv).mode & 0o777, 0o600);
    assert.equal((await cli({ argv: ['config', 'validate'], env })).code, 0);
    const again = await cli({ argv: ['setup', 'telegram', '--owner', '12345', '--api-root', telegram.apiRoot], env });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(readFileSync(config, 'utf8').match(/"12345"/g)?.length, 1, 'the owner is not added twice');
  });

  test('telegram: a wrong token is a clear error (exit 78) and nothing is written', async () => {
    const { env, config, dotEnv } = newHome();
    writeFileSync(config, '# mine\nmodel:\n  name: m\n');
    const res = await cli({ argv: ['setup', 'telegram', '--token', '1:bad', '--owner', '12345', '--api-root', telegram.apiRoot], env });
    assert.equal(res.code, 78);
    assert.match(res.stderr, /error: Telegram rejected the bot token \(401.*nothing was written/);
    assert.match(res.stderr, /hint: .*@BotFather/);
    assert.ok(!res.stderr.includes('1:bad'));
    assert.equal(readFileSync(config, 'utf8'), '# mine\nmodel:\n  name: m\n');
    assert.equal(existsSync(dotEnv), false);
  });

  test('telegram: a missing token or a malformed owner id is a usage error (64)', async () => {
    const { env } = newHome();
    assert.equal((await cli({ argv: ['setup', 'telegram', '--yes'], env })).code, 64);
    const owner = await cli({ argv: ['setup', 'telegram', '--token', '1:good', '--owner', '@me', '--yes'], env });
    assert.equal(owner.code, 64);
    assert.match(owner.stderr, /not a Telegram user id/);
  });

  test('slack (auth.test and the app token) and discord (/users/@me) write configs `config validate` accepts', async () => {
    const { env, config, dotEnv } = newHome();
    const s = await cli({ argv: ['setup', 'slack', '--bot-token', 'xoxb-good', '--app-token', 'xapp-good', '--owner', 'U0OWNER', '--api-url', slack.apiUrl, '--yes'], env });
    assert.equal(s.code, 0, s.stderr);
    const d = await cli({ argv: ['setup', 'discord', '--token', 'discord-good', '--owner', '123456789012345678', '--api-url', discord.apiBase, '--yes'], env });
    assert.equal(d.code, 0, d.stderr);
    const yaml = readFileSync(config, 'utf8');
    assert.match(yaml, /bot_token: \$\{SLACK_BOT_TOKEN\}/);
    assert.match(yaml, /- U0OWNER/);
    assert.match(yaml, /- "123456789012345678"/);
    const dot = readFileSync(dotEnv, 'utf8');
    assert.match(dot, /^SLACK_APP_TOKEN=xapp-good$/m);
    assert.match(dot, /^DISCORD_BOT_TOKEN=discord-good$/m);
    assert.equal((await cli({ argv: ['config', 'validate'], env })).code, 0);
    const bad = await cli({ argv: ['setup', 'slack', '--bot-token', 'xoxb-good', '--app-token', 'xapp-bad', '--api-url', slack.apiUrl, '--yes'], env });
    assert.equal(bad.code, 78);
    assert.match(bad.stderr, /Slack rejected the app-level token/);
    assert.match(readFileSync(dotEnv, 'utf8'), /^SLACK_APP_TOKEN=xapp-good$/m, 'the refused token was not written');
  });

  test('sms: the Twilio account fetched with the SID and token; the owner number normalized', async () => {
    const { env, config } = newHome();
    const base = ['setup', 'sms', '--account-sid', 'AC0123456789abcdef', '--from-number', '+15550001111', '--webhook-url', 'https://bot.example.com/sms/twilio', '--api-base', twilio.apiBase];
    const bad = await cli({ argv: [...base, '--auth-token', 'twilio-bad', '--yes'], env });
    assert.equal(bad.code, 78);
    assert.match(bad.stderr, /Twilio rejected/);
    const res = await cli({ argv: [...base, '--auth-token', 'twilio-good', '--owner', '+1 (555) 222-3333', '--yes'], env });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /account "Fake account"/);
    assert.match(readFileSync(config, 'utf8'), /- "\+15552223333"/);
    assert.equal((await cli({ argv: ['config', 'validate'], env })).code, 0);
  });
});

test('`hermes chat` without a model and without a terminal: exit 78, the hint names `hermes setup`', async () => {
  const { env } = newHome();
  const res = await cli({ argv: ['chat'], env });
  assert.equal(res.code, 78);
  assert.match(res.stderr, /^error: No model is configured/);
  assert.match(res.stderr, /Or run `hermes setup`/);
});
