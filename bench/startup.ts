import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { FakeDiscord } from '../test/fakes/discord/index.js';
import { FakeOpenAI } from '../test/fakes/openai/server.js';
import { FakeSlack } from '../test/fakes/slack/index.js';
import { SmtpSink } from '../test/fakes/smtp/sink.js';
import { FakeTelegram } from '../test/fakes/telegram/index.js';
import { FakeTwilio } from '../test/fakes/twilio/index.js';
import { discordToken, testGuild } from '../test/helpers/discord.js';
import { dovecotAvailability, startDovecot, type Dovecot } from '../test/helpers/dovecot.js';
import { slackTokens } from '../test/helpers/slack.js';
import { smsSetup } from '../test/helpers/sms.js';
import { testToken } from '../test/helpers/telegram.js';
import { spawnBuiltGateway, waitReady } from './gateway-ready.js';
import { rssMb } from './proc.js';


/** Start-up and idle memory of `hermes gateway run` child processes. */
export interface StartupFigures {
  /** Platforms enabled in every run. */
  readonly platforms: readonly string[];
  /** Spawn → gateway.json written (HTTP listening, adapters starting), per run. */
  readonly listeningMs: readonly number[];
  /** Spawn → /healthz says every adapter is connected, per run. */
  readonly readyMs: readonly number[];
  /** VmRSS after ready plus the idle time, per run. */
  readonly idleRssMb: readonly number[];
  readonly idleMs: number;
}

/**
 * Spawns the built `hermes -p bench gateway run` with Telegram, Slack and Discord (or `only` those named)
 * enabled against the local fakes, `runs` times one after another: measures spawn → every adapter connected
 * (gateway.json, then /healthz "ok"), then the process's VmRSS after `idleMs` of idling.
 */
export async function runStartup(params: {
  runs: number;
  idleMs: number;
  only?: readonly ('telegram' | 'slack' | 'discord' | 'email' | 'sms')[];
  /** Node options before the script (`--cpu-prof`, `--import hook.mjs`, …), for profiling a start. */
  nodeArgs?: readonly string[];
  /** More environment for the child (MALLOC_ARENA_MAX, say). */
  env?: Readonly<Record<string, string>>;
  /** Called with the child's pid once it has idled, before it is stopped (a heap snapshot, say). */
  onIdle?: (child: { pid: number }) => Promise<void>;
}): Promise<StartupFigures> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-bench-startup-'));
  const telegram = new FakeTelegram({ token: testToken });
  const slack = new FakeSlack({ ...slackTokens });
  const discord = new FakeDiscord({ token: discordToken, guilds: [testGuild] });
  const model = new FakeOpenAI();
  const twilio = new FakeTwilio({ accountSid: smsSetup.accountSid, authToken: smsSetup.authToken });
  const smtp = new SmtpSink();
  const wantEmail = (params.only === undefined || params.only.includes('email')) && dovecotAvailability().available;
  const [dovecot] = await Promise.all([
    wantEmail ? startDovecot() : Promise.resolve<Dovecot | undefined>(undefined),
    telegram.start(),
    slack.start(),
    discord.start(),
    model.start(),
    twilio.start(),
    smtp.start(),
  ]);
  const dir = path.join(home, 'profiles', 'bench');
  mkdirSync(dir, { recursive: true });
  const all = {
    telegram: { enabled: true, token: testToken, api_root: telegram.apiRoot, allowed_users: ['1'] },
    slack: { enabled: true, bot_token: slackTokens.botToken, app_token: slackTokens.appToken, api_url: slack.apiUrl, allowed_users: ['U1'] },
    discord: { enabled: true, token: discordToken, api_url: discord.apiBase, allowed_users: ['1'] },
    ...(dovecot
      ? {
          email: {
            enabled: true, imap_host: dovecot.host, imap_port: dovecot.port, imap_tls: false, smtp_host: '127.0.0.1', smtp_port: smtp.port, smtp_tls: 'none',
            username: dovecot.user.username, password: dovecot.user.password, address: 'bot@example.com', trusted_auth_server: 'mx.bench.test', allowed_users: ['owner@example.org'],
          },
        }
      : {}),
    sms: { enabled: true, account_sid: smsSetup.accountSid, auth_token: smsSetup.authToken, from_number: smsSetup.botNumber, webhook_url: smsSetup.webhookUrl, api_base: twilio.apiBase, allowed_users: ['+15550001111'] },
  };
  const platforms = Object.fromEntries(Object.entries(all).filter(([name]) => params.only === undefined || params.only.some((n) => n === name)));
  writeFileSync(path.join(dir, 'config.yaml'), stringify({ model: { base_url: model.baseURL, api_key: 'sk-bench' }, gateway: { http: { port: 0 } }, logging: { level: 'warn' }, platforms }));
  const readyMs: number[] = [];
  const listeningMs: number[] = [];
  const idleRssMb: number[] = [];
  try {
    for (let run = 0; run < params.runs; run++) {
      const t0 = performance.now();
      // The built CLI, as `hermes` runs for a user (`npm run bench` builds it first).
      const child = spawnBuiltGateway({ home, ...(params.nodeArgs ? { nodeArgs: params.nodeArgs } : {}), ...(params.env ? { env: params.env } : {}), stdio: 'ignore' });
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      try {
        const ready = await waitReady({ child, dir, since: t0, timeoutMs: 60_000 });
        readyMs.push(ready.readyMs);
        listeningMs.push(ready.listeningMs);
        await new Promise((r) => setTimeout(r, params.idleMs));
        idleRssMb.push(rssMb({ pid: child.pid ?? 0 }));
        await params.onIdle?.({ pid: child.pid ?? 0 });
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    }
  } finally {
    await Promise.all([telegram.close(), slack.close(), discord.close(), model.close(), twilio.close(), smtp.close(), dovecot?.stop()]);
    rmSync(home, { recursive: true, force: true });
  }
  return { platforms: Object.keys(platforms), listeningMs, readyMs, idleRssMb, idleMs: params.idleMs };
}
