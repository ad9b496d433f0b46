import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { FakeSlack } from '../fakes/slack/index.js';
import { FakeTwilio } from '../fakes/twilio/index.js';
import { SmtpSink } from '../fakes/smtp/sink.js';
import { dovecotAvailability, startDovecot } from '../helpers/dovecot.js';
import { botAddress } from '../helpers/email.js';
import { healthOf, startCliGateway, until, type GatewayProcess } from '../helpers/gateway-process.js';
import { slackTokens } from '../helpers/slack.js';
import { owner, smsSetup } from '../helpers/sms.js';
import { testToken } from '../helpers/telegram.js';

/** Packages a Telegram-only profile with default settings must never load (each costs MBs of memory and ms of start-up). */
const unused = ['@slack/', 'discord.js', '@discordjs/', 'imapflow', 'mailparser', 'nodemailer', 'twilio', 'prom-client', 'pino-pretty', 'marked-terminal', 'gpt-tokenizer', '@modelcontextprotocol/', 'linkedom', '@mozilla/readability', 'pdfjs-dist', 'sharp', '@img/'];

/** A gateway of a fresh profile "work" (the fake model, `platforms`), run by the CLI with every module it loads traced. */
function tracedGateway(params: { model: FakeOpenAI; platforms: Record<string, unknown>; config?: Record<string, unknown> }): { home: string; dir: string; trace: string; gateway: GatewayProcess } {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-lazy-'));
  const trace = path.join(home, 'modules.txt');
  const dir = path.join(home, 'profiles', 'work');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'config.yaml'),
    stringify({ model: { base_url: params.model.baseURL, api_key: 'sk-lazy-test' }, gateway: { http: { port: 0 } }, platforms: params.platforms, ...params.config }),
  );
  const gateway = startCliGateway({ home, profile: 'work', nodeOptions: ['--import', './test/helpers/module-trace.mjs'], env: { MODULE_TRACE_FILE: trace } });
  return { home, dir, trace, gateway };
}

test('a Telegram-only profile loads neither the other platforms\' SDKs nor the tokenizer, metrics, pretty-log or MCP packages, also after a turn near the context limit and its background review; nor ICU\'s zones before it', { timeout: 60_000 }, async () => {
  const fake = new FakeTelegram({ token: testToken });
  const model = new FakeOpenAI();
  await Promise.all([fake.start(), model.start()]);
  model.setResponder(() => ({ text: 'Hello from hermes.' }));
  const { home, trace, gateway } = tracedGateway({
    model,
    platforms: { telegram: { enabled: true, token: testToken, api_root: fake.apiRoot, allowed_users: ['@owner'], merge_window: '100ms' } },
    // The default model (gpt-4o-mini, o200k) with a context whose safety share the first request's bytes pass: the
    // meter used to count such a request with the tokenizer, and the review (after every turn here) a transcript
    // whose bytes pass its cap (a quarter of the context: 1,500 tokens; the message below has 2,400 bytes).
    config: { model: { base_url: model.baseURL, api_key: 'sk-lazy-test', context_length: 6000 }, skills: { review_interval: 1 } },
  });
  const { output } = gateway;
  try {
    await fake.waitFor({ predicate: (f) => f.calls.some((c) => c.method === 'getUpdates'), timeoutMs: 30_000 }).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${output()}`);
    });
    // Waiting for its first message, the gateway has not asked Intl for a time zone (ICU's data: ~8 MB of RSS).
    assert.ok(!readFileSync(trace, 'utf8').includes('intl:DateTimeFormat'), 'an Intl.DateTimeFormat was made before the first turn');
    fake.pushMessage({ chat: { id: 77, type: 'private' }, from: { id: 77, first_name: 'Owner', username: 'owner' }, text: 'please keep this in mind. '.repeat(96) });
    await fake.waitFor({ predicate: (f) => f.chatMessages(77).some((m) => m.shown === 'Hello from hermes.'), timeoutMs: 15_000 });
    // The background review's model call: the turn's own, then the review's.
    await until({ what: 'the background review\'s model call', timeoutMs: 15_000, check: () => model.requests.length >= 2, output });
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

const dovecot = dovecotAvailability();

test('email, SMS and Slack connect without loading mailparser, nodemailer, the twilio SDK or slackify-markdown; Slack loads its converter for its first reply', { timeout: 60_000, skip: dovecot.available ? false : dovecot.reason }, async () => {
  const imap = await startDovecot();
  const sink = new SmtpSink();
  const twilio = new FakeTwilio({ accountSid: smsSetup.accountSid, authToken: smsSetup.authToken });
  const slack = new FakeSlack({ ...slackTokens });
  const model = new FakeOpenAI();
  await Promise.all([sink.start(), twilio.start(), slack.start(), model.start()]);
  model.setResponder(() => ({ text: 'Hello from **hermes**.' }));
  const { home, dir, trace, gateway } = tracedGateway({
    model,
    platforms: {
      email: {
        enabled: true,
        imap_host: imap.host,
        imap_port: imap.port,
        imap_tls: false,
        smtp_host: '127.0.0.1',
        smtp_port: sink.port,
        smtp_tls: 'none',
        username: imap.user.username,
        password: imap.user.password,
        address: botAddress,
        allowed_users: ['owner@example.com'],
      },
      slack: { enabled: true, bot_token: slackTokens.botToken, app_token: slackTokens.appToken, signing_secret: slackTokens.signingSecret, api_url: slack.apiUrl, allowed_users: ['U0OWNER'] },
      sms: { enabled: true, account_sid: smsSetup.accountSid, auth_token: smsSetup.authToken, from_number: smsSetup.botNumber, webhook_url: smsSetup.webhookUrl, api_base: twilio.apiBase, allowed_users: [owner] },
    },
  });
  try {
    await until({
      what: 'email, sms and slack connected',
      timeoutMs: 30_000,
      output: gateway.output,
      check: async () => {
        const adapters = (await healthOf({ profileDir: dir }))?.adapters ?? [];
        return ['email', 'sms', 'slack'].every((name) => adapters.some((a) => a.name === name && a.state === 'connected'));
      },
    });
    // The SMS adapter checked the credentials at start, as the SDK's accounts(sid).fetch() does.
    assert.ok(twilio.calls.some((c) => c.method === 'GET' && c.path === `/2010-04-01/Accounts/${smsSetup.accountSid}.json` && c.status === 200), JSON.stringify(twilio.calls));
    const traced = (): string[] => readFileSync(trace, 'utf8').split('\n').filter((line) => line.includes('node_modules'));
    const loaded = traced();
    assert.ok(loaded.some((line) => line.includes('/node_modules/imapflow/')), 'imapflow is not in the trace');
    for (const name of ['mailparser', 'nodemailer', 'axios', 'slackify-markdown', 'micromark']) assert.deepEqual(loaded.filter((line) => line.includes(`/node_modules/${name}/`)), [], `${name} was loaded at start`);
    // Of Bolt, only its request verifier (its index loads express and every receiver).
    assert.deepEqual(loaded.filter((line) => line.includes('/node_modules/@slack/bolt/') && !line.includes('/dist/receivers/verify-request.js')), [], 'Bolt beyond its verifier was loaded');
    assert.deepEqual(loaded.filter((line) => line.includes('/node_modules/express/')), [], 'express was loaded');
    // Only the webhook signature check of twilio (one small file) is needed to take messages.
    assert.deepEqual(loaded.filter((line) => line.includes('/node_modules/twilio/') && !line.includes('/node_modules/twilio/lib/webhooks/')), [], 'the twilio SDK was loaded at start');
    // The first reply on Slack loads the converter and goes out as mrkdwn.
    const event = slack.userMessage({ channel: 'C0GENERAL', channelType: 'channel', user: 'U0OWNER', text: `<@${slack.botUserId}> hi` });
    await slack.deliverEvent({ event, eventId: 'EvLazy1', timeoutMs: 30_000 });
    // slackify-markdown writes bold as *…* (with zero-width spaces around it).
    await until({ what: 'the Slack reply', timeoutMs: 30_000, output: gateway.output, check: () => slack.messages('C0GENERAL').some((m) => m.text.includes('*hermes*')) });
    assert.ok(traced().some((line) => line.includes('/node_modules/slackify-markdown/')), 'the reply did not load slackify-markdown: the check above proves nothing');
  } finally {
    if (gateway.alive()) gateway.proc.kill('SIGKILL');
    await Promise.all([sink.close(), twilio.close(), slack.close(), model.close(), imap.stop()]);
    rmSync(home, { recursive: true, force: true });
  }
});
