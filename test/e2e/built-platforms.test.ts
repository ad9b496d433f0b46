import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { NODE_FLAGS } from '../../src/cli/node-flags.js';
import { FakeDiscord } from '../fakes/discord/index.js';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { FakeSlack } from '../fakes/slack/index.js';
import { SmtpSink } from '../fakes/smtp/sink.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { discordToken, testGuild } from '../helpers/discord.js';
import { dovecotAvailability, startDovecot, type Dovecot } from '../helpers/dovecot.js';
import { botAddress, composeRaw, shownText, testAuthServer } from '../helpers/email.js';
import { healthOf, until } from '../helpers/gateway-process.js';
import { slackTokens } from '../helpers/slack.js';
import { owner as smsOwner, smsSetup, startTwilio } from '../helpers/sms.js';
import { testToken } from '../helpers/telegram.js';
import { runCommand } from '../helpers/run-command.js';

const repo = path.resolve(import.meta.dirname, '../..');

/** The npm package a module path or URL belongs to (the last node_modules segment), if any. */
function packageOf(params: { file: string }): string | undefined {
  return /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(params.file)?.[1];
}

/** The npm packages whose code the given built files carry (their source maps list the bundled modules). */
function bundledIn(params: { files: readonly string[] }): Set<string> {
  const names = new Set<string>();
  for (const file of params.files) {
    const { sources } = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] };
    for (const source of sources) {
      const name = packageOf({ file: source });
      if (name !== undefined) names.add(name);
    }
  }
  return names;
}

/** The package as the README's install builds it, once for this file: the build in a copy, node_modules found from the folder above. */
interface BuiltPackage {
  readonly tmp: string;
  readonly dist: string;
  /** Every package the bundle carries. */
  readonly bundled: ReadonlySet<string>;
}

let built: BuiltPackage | undefined;

before(async () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'hermes-built-'));
  const pkg = path.join(tmp, 'hermes-gateway');
  mkdirSync(pkg);
  writeFileSync(path.join(pkg, 'package.json'), readFileSync(path.join(repo, 'package.json')));
  for (const asset of ['profiles', 'config.example.yaml']) symlinkSync(path.join(repo, asset), path.join(pkg, asset));
  symlinkSync(realpathSync(path.join(repo, 'node_modules')), path.join(tmp, 'node_modules'));
  const dist = path.join(pkg, 'dist');
  const build = await runCommand({ command: process.execPath, args: ['--import', 'tsx', 'scripts/build.ts', '--outDir', dist], cwd: repo });
  assert.equal(build.code, 0, build.stdout + build.stderr);
  const chunks = path.join(dist, 'chunks');
  const bundled = bundledIn({ files: readdirSync(chunks).filter((f) => f.endsWith('.js')).map((f) => path.join(chunks, f)) });
  built = { tmp, dist, bundled };
});

after(() => {
  if (built !== undefined) rmSync(built.tmp, { recursive: true, force: true });
});

/** The built package (made by `before`). */
function builtPackage(): BuiltPackage {
  if (built === undefined) throw new Error('the package was not built');
  return built;
}

/** A running built `hermes -p work gateway run` with its module loads traced. */
interface BuiltGateway {
  readonly proc: ChildProcess;
  readonly output: () => string;
  readonly exited: Promise<number | null>;
  readonly home: string;
  readonly profileDir: string;
  /** The files of the modules it loaded so far (paths; ES modules' as file: URLs), from test/helpers/module-trace.mjs. */
  readonly loaded: () => string[];
}

/** Writes profile "work" (the fake model, `platforms`) in a fresh HERMES_HOME and starts the built gateway on it. */
function startBuilt(params: { model: FakeOpenAI; platforms: Record<string, unknown> }): BuiltGateway {
  const { tmp, dist } = builtPackage();
  const home = mkdtempSync(path.join(tmp, 'home-'));
  const trace = path.join(home, 'modules.txt');
  const profileDir = path.join(home, 'profiles', 'work');
  mkdirSync(profileDir, { recursive: true });
  writeFileSync(path.join(profileDir, 'config.yaml'), stringify({ model: { base_url: params.model.baseURL, api_key: 'sk-built-test' }, gateway: { http: { port: 0 } }, platforms: params.platforms }));
  const proc = spawn(process.execPath, [...NODE_FLAGS, '--import', path.join(repo, 'test', 'helpers', 'module-trace.mjs'), path.join(dist, 'src', 'cli', 'main.js'), '-p', 'work', 'gateway', 'run'], {
    cwd: tmp,
    env: { PATH: process.env['PATH'] ?? '', HOME: home, HERMES_HOME: home, MODULE_TRACE_FILE: trace },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout.on('data', (d: Buffer) => (output += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const loaded = (): string[] => readFileSync(trace, 'utf8').split('\n').filter((file) => file.startsWith('file:') || file.startsWith('/'));
  return { proc, output: () => output, exited, home, profileDir, loaded };
}

/** Waits until /healthz has each of `platforms` connected. */
async function connected(params: { gateway: BuiltGateway; platforms: readonly string[] }): Promise<void> {
  const { gateway } = params;
  await until({
    what: `${params.platforms.join(', ')} connected`,
    timeoutMs: 60_000,
    output: gateway.output,
    check: async () => {
      const adapters = (await healthOf({ profileDir: gateway.profileDir }))?.adapters ?? [];
      return params.platforms.every((name) => adapters.some((a) => a.name === name && a.state === 'connected'));
    },
  });
}

/**
 * What users run is the bundle (scripts/build.ts), not the sources the rest of the suite runs: the platform SDKs it
 * carries must work from it. The built `hermes gateway run` with all five platforms against their fakes takes one
 * message on each and answers it there, loads no bundled package a second time from node_modules, and stops cleanly.
 */
test('the built gateway answers on Telegram, Slack, Discord, SMS and email with the SDKs it bundles', { timeout: 120_000 }, async (t) => {
  const model = new FakeOpenAI();
  const telegram = new FakeTelegram({ token: testToken });
  const slack = new FakeSlack({ ...slackTokens });
  const discord = new FakeDiscord({ token: discordToken, guilds: [testGuild] });
  const sink = new SmtpSink();
  const { fake: twilio, hooks: twilioHooks } = await startTwilio();
  const dovecotState = dovecotAvailability();
  let dovecot: Dovecot | undefined;
  let gateway: BuiltGateway | undefined;
  try {
    await Promise.all([model.start(), telegram.start(), slack.start(), discord.start(), sink.start()]);
    if (dovecotState.available) dovecot = await startDovecot();
    else t.diagnostic(`email left out: ${dovecotState.reason}`);
    const answer = 'Hello from the bundle.';
    model.setResponder(() => ({ text: answer }));
    const discordOwner = '200000000000000001';
    const discordDm = discord.openDm({ userId: discordOwner, username: 'owner' });
    const emailOwner = 'owner@example.org';
    gateway = startBuilt({
      model,
      platforms: {
        telegram: { enabled: true, token: testToken, api_root: telegram.apiRoot, allowed_users: ['@owner'], merge_window: '100ms' },
        slack: { enabled: true, bot_token: slackTokens.botToken, app_token: slackTokens.appToken, signing_secret: slackTokens.signingSecret, api_url: slack.apiUrl, allowed_users: ['U0OWNER'], merge_window: '100ms' },
        discord: { enabled: true, token: discordToken, api_url: discord.apiBase, allowed_users: [discordOwner], merge_window: '100ms' },
        sms: { enabled: true, account_sid: smsSetup.accountSid, auth_token: smsSetup.authToken, from_number: smsSetup.botNumber, webhook_url: smsSetup.webhookUrl, api_base: twilio.apiBase, allowed_users: [smsOwner] },
        ...(dovecot === undefined
          ? {}
          : {
              email: {
                enabled: true,
                imap_host: dovecot.host,
                imap_port: dovecot.port,
                imap_tls: false,
                smtp_host: '127.0.0.1',
                smtp_port: sink.port,
                smtp_tls: 'none',
                username: dovecot.user.username,
                password: dovecot.user.password,
                address: botAddress,
                trusted_auth_server: testAuthServer,
                allowed_users: [emailOwner],
              },
            }),
      },
    });
    const platforms = ['telegram', 'slack', 'discord', 'sms', ...(dovecot === undefined ? [] : ['email'])];
    await connected({ gateway, platforms });
    const state = JSON.parse(readFileSync(path.join(gateway.profileDir, 'gateway.json'), 'utf8')) as { http: { host: string; port: number } };
    twilioHooks.setLocalOrigin({ origin: `http://127.0.0.1:${state.http.port}` });

    telegram.pushMessage({ chat: { id: 77, type: 'private' }, from: { id: 77, first_name: 'Owner', username: 'owner' }, text: 'hi on telegram' });
    await slack.deliverEvent({ event: slack.userMessage({ channel: 'D0OWNER', channelType: 'im', user: 'U0OWNER', text: 'hi on slack' }), eventId: 'EvBuilt1', timeoutMs: 30_000 });
    await discord.waitFor({ predicate: () => discord.sessions > 0, what: 'a gateway session' });
    discord.messageCreate({ channelId: discordDm, author: { id: discordOwner, username: 'owner' }, content: 'hi on discord' });
    const sms = await twilioHooks.inbound({ from: smsOwner, to: smsSetup.botNumber, body: 'hi on sms' });
    assert.equal(sms.status, 200, sms.text);
    if (dovecot !== undefined) await dovecot.append({ raw: (await composeRaw({ from: `Owner <${emailOwner}>`, subject: 'Hi on email', text: 'hi on email' })).raw });

    const answered = {
      telegram: () => telegram.chatMessages(77).some((m) => m.shown === answer),
      slack: () => slack.messages('D0OWNER').some((m) => m.text === answer),
      discord: () => discord.channelMessages({ channelId: discordDm }).some((m) => m.content === answer),
      sms: () => twilio.messagesTo({ to: smsOwner }).some((m) => m.body === answer),
      email: () => sink.mailsTo({ address: emailOwner }).some((mail) => shownText({ mail }).includes(answer)),
    } satisfies Record<string, () => boolean>;
    for (const name of platforms) await until({ what: `the answer on ${name}`, timeoutMs: 30_000, output: gateway.output, check: answered[name as keyof typeof answered] });

    gateway.proc.kill('SIGTERM');
    assert.equal(await gateway.exited, 0, gateway.output());
    // `hermes doctor` checks each platform's credentials from the bundle too (email through imapflow and nodemailer).
    const doctor = await runCommand({ command: process.execPath, args: [...NODE_FLAGS, path.join(builtPackage().dist, 'src', 'cli', 'main.js'), '-p', 'work', 'doctor'], cwd: gateway.home, env: { PATH: process.env['PATH'] ?? '', HOME: gateway.home, HERMES_HOME: gateway.home } });
    const said = doctor.stdout + doctor.stderr;
    assert.equal(doctor.code, 0, said);
    for (const name of platforms) assert.match(said, new RegExp(`^✓ ${name}: `, 'm'), said);
    // What is bundled runs from the bundle: no file of a bundled package also loaded from node_modules (two copies
    // would cost their memory twice, and this test would not be testing the bundled one). A package's own nested copy
    // (node_modules/x/node_modules/y) is another version, not this one.
    const fromModules = gateway.loaded().filter((url) => url.split('/node_modules/').length === 2);
    assert.ok(fromModules.some((url) => packageOf({ file: url }) === 'better-sqlite3'), 'the trace holds no external package: it proves nothing');
    const twice = fromModules.filter((url) => builtPackage().bundled.has(packageOf({ file: url }) ?? ''));
    assert.deepEqual(twice, [], 'bundled packages loaded from node_modules too');
  } finally {
    if (gateway !== undefined && gateway.proc.exitCode === null) gateway.proc.kill('SIGKILL');
    await Promise.all([model.close(), telegram.close(), slack.close(), discord.close(), sink.close(), twilio.close(), dovecot?.stop()]);
  }
});

/** The SDKs in the bundle load only with their platform: a Telegram profile's gateway runs none of the others' code. */
test('the built gateway of a Telegram profile loads no other platform\'s code from the bundle', { timeout: 60_000 }, async () => {
  const model = new FakeOpenAI();
  const telegram = new FakeTelegram({ token: testToken });
  await Promise.all([model.start(), telegram.start()]);
  model.setResponder(() => ({ text: 'Telegram only.' }));
  const gateway = startBuilt({ model, platforms: { telegram: { enabled: true, token: testToken, api_root: telegram.apiRoot, allowed_users: ['@owner'], merge_window: '100ms' } } });
  try {
    await connected({ gateway, platforms: ['telegram'] });
    telegram.pushMessage({ chat: { id: 77, type: 'private' }, from: { id: 77, first_name: 'Owner', username: 'owner' }, text: 'hi' });
    await until({ what: 'the answer', timeoutMs: 30_000, output: gateway.output, check: () => telegram.chatMessages(77).some((m) => m.shown === 'Telegram only.') });
    const builtFiles = gateway
      .loaded()
      .filter((url) => url.includes('/hermes-gateway/dist/'))
      .map((file) => (file.startsWith('file:') ? fileURLToPath(file) : file));
    const ran = bundledIn({ files: builtFiles });
    assert.ok(ran.has('grammy'), `the trace holds no bundled platform SDK: it proves nothing (${[...ran].join(', ')})`);
    const others = ['discord.js', '@discordjs/ws', '@slack/socket-mode', '@slack/web-api', 'imapflow', 'mailparser', 'nodemailer'];
    assert.deepEqual(others.filter((name) => ran.has(name)), []);
    assert.deepEqual(gateway.loaded().filter((url) => others.some((name) => url.includes(`/node_modules/${name}/`)) || url.includes('/node_modules/twilio/')), []);
  } finally {
    if (gateway.proc.exitCode === null) gateway.proc.kill('SIGKILL');
    await Promise.all([model.close(), telegram.close()]);
  }
});
