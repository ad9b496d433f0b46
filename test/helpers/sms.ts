import assert from 'node:assert/strict';
import path from 'node:path';
import { pino, type Logger } from 'pino';
import { SmsAdapter } from '../../adapters/sms/adapter.js';
import { smsFactory } from '../../adapters/sms/factory.js';
import { smsSchema } from '../../adapters/sms/config-schema.js';
import { appConfigSchema } from '../../src/app/config-schema.js';
import type { Clock } from '../../src/core/clock.js';
import type { ContractPlatform, ShownBotMessage } from '../contract/platform.js';
import { FakeTwilio, TwilioWebhooks, type FakeSentMessage } from '../fakes/twilio/index.js';
import { startHarness, type Harness } from './harness.js';
import { gatewayFacts } from './gateway-facts.js';
import { tinyPng } from './images.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

/** Credentials and numbers the fake and the adapter share. */
export const smsSetup = {
  accountSid: 'AC0123456789abcdef0123456789abcdef',
  authToken: 'twilio-auth-token-for-tests-0123',
  botNumber: '+15559990000',
  /** The URL "configured in Twilio": signatures are made over it; the test rewrites it to the gateway's port. */
  webhookUrl: 'https://sms.example.test/sms/twilio',
};

/** The person on the allowlist, and someone who is not. */
export const owner = '+15550001111';
export const stranger = '+15550002222';

/** A 1×1 PNG. */
export { tinyPng };

/** MIME types for the files tests send in, by extension. */
const CONTENT_TYPES: Readonly<Record<string, string>> = { '.pdf': 'application/pdf', '.png': 'image/png', '.jpg': 'image/jpeg', '.txt': 'text/plain' };

/** The content type a test file is sent in with. */
export function contentTypeOf(params: { fileName: string }): string {
  return CONTENT_TYPES[path.extname(params.fileName).toLowerCase()] ?? 'application/octet-stream';
}

/** A fake Twilio and the webhook side of it, started. */
export async function startTwilio(): Promise<{ fake: FakeTwilio; hooks: TwilioWebhooks }> {
  const fake = new FakeTwilio({ accountSid: smsSetup.accountSid, authToken: smsSetup.authToken });
  await fake.start();
  const hooks = new TwilioWebhooks({ accountSid: smsSetup.accountSid, authToken: smsSetup.authToken, publicUrl: smsSetup.webhookUrl });
  // Twilio fetches an MMS's media when the message is created; the fake does it through the gateway's media route.
  fake.mediaFetcher = (params) => hooks.fetchMedia(params);
  return { fake, hooks };
}

/** Builds an SMS adapter talking to the fake (overrides are `platforms.sms` keys). */
export function smsAdapter(params: { fake: FakeTwilio; cacheDir: string; clock: Clock; logger: Logger; overrides?: Record<string, unknown>; refusedRetryMs?: number }): SmsAdapter {
  return new SmsAdapter({
    ...(params.refusedRetryMs !== undefined ? { refusedRetryMs: params.refusedRetryMs } : {}),
    config: smsSchema.parse({
      enabled: true,
      account_sid: smsSetup.accountSid,
      auth_token: smsSetup.authToken,
      from_number: smsSetup.botNumber,
      webhook_url: smsSetup.webhookUrl,
      api_base: params.fake.apiBase,
      ...params.overrides,
    }),
    cacheDir: params.cacheDir,
    clock: params.clock,
    logger: params.logger,
  });
}

/** A sent SMS as the person sees it: the text, and the first picture Twilio fetched (named as in its link). */
export function shown(params: { message: FakeSentMessage }): ShownBotMessage {
  const media = params.message.media.find((m) => m.status === 200);
  if (media === undefined) return { text: params.message.body };
  const name = decodeURIComponent(new URL(media.url).pathname.split('/').at(-1) ?? '');
  return { text: params.message.body, file: { name, bytes: media.bytes } };
}

/** SMS as a contract platform: the real twilio SDK against FakeTwilio, webhooks signed the way Twilio signs them. */
export async function smsPlatform(): Promise<ContractPlatform> {
  const { fake, hooks } = await startTwilio();
  let adapter: SmsAdapter | undefined;
  return {
    owner: { id: owner, chatId: owner },
    stranger: { id: stranger, chatId: stranger },
    needsHttp: true,
    outboundFile: { name: 'picture.png', bytes: tinyPng },
    useGateway: ({ port }) => hooks.setLocalOrigin({ origin: `http://127.0.0.1:${port}` }),
    entry: ({ profile, clock, logger }) => {
      adapter ??= smsAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [owner], unauthorized: 'ignore' } });
      return { adapter, allow: [owner], unauthorized: 'ignore' };
    },
    userSays: async ({ user, text, file }) => {
      const media = file ? [fake.addMedia({ bytes: file.bytes, contentType: contentTypeOf({ fileName: file.fileName }) })] : undefined;
      const answer = await hooks.inbound({ from: user.id, to: smsSetup.botNumber, body: text, ...(media ? { media } : {}) });
      if (answer.status !== 200) throw new Error(`the gateway answered the webhook with ${answer.status}: ${answer.text}`);
    },
    redeliverLast: async () => {
      const answer = await hooks.redeliverLast();
      if (answer.status !== 200) throw new Error(`the gateway answered the redelivery with ${answer.status}: ${answer.text}`);
    },
    botMessages: ({ chatId }) => fake.messagesTo({ to: chatId }).map((message) => shown({ message })),
    visibleLength: ({ text }) => text.length,
    close: async () => fake.close(),
  };
}

/** A gateway with the SMS adapter (built by its factory from a `platforms.sms` block) and a fake Twilio. */
export interface SmsGateway {
  readonly h: Harness;
  readonly fake: FakeTwilio;
  readonly hooks: TwilioWebhooks;
  /** Every log line of the gateway, parsed. */
  readonly logs: Record<string, unknown>[];
  stop(): Promise<void>;
}

/** Starts the gateway on a free loopback port with `platforms.sms` (plus `overrides`); logs are captured. */
export async function startSmsGateway(params: { overrides?: Record<string, unknown>; adapterClock?: Clock; config?: Record<string, unknown> } = {}): Promise<SmsGateway> {
  const { fake, hooks } = await startTwilio();
  const logs: Record<string, unknown>[] = [];
  const logger: Logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  const parsed = configSchema.parse({
    platforms: {
      sms: {
        enabled: true,
        allowed_users: ['+1 555-000-1111'],
        account_sid: smsSetup.accountSid,
        auth_token: smsSetup.authToken,
        from_number: smsSetup.botNumber,
        webhook_url: smsSetup.webhookUrl,
        api_base: fake.apiBase,
        ...params.overrides,
      },
    },
  });
  const h = await startHarness({
    withHttp: true,
    logger,
    ...(params.config ? { config: params.config } : {}),
    adapters: ({ profile, clock }) => [
      smsFactory({ config: parsed.platforms.sms, cacheDir: profile.cacheDir, skillCommands: () => [], gateway: gatewayFacts({ profile, config: parsed }), clock: params.adapterClock ?? clock, logger }),
    ],
  });
  const address = h.runner.httpAddress;
  assert.ok(address, 'the gateway HTTP server listens');
  hooks.setLocalOrigin({ origin: `http://127.0.0.1:${address.port}` });
  return {
    h,
    fake,
    hooks,
    logs,
    stop: async () => {
      await h.stop();
      await fake.close();
    },
  };
}

/** Waits (polling) until `check` holds. */
export async function until(params: { check: () => boolean; what: string; timeoutMs?: number }): Promise<void> {
  const deadline = Date.now() + (params.timeoutMs ?? 10_000);
  while (!params.check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${params.what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/**
 * No log line holds the auth token, and no line the SMS code writes (the adapter's, its HTTP scope's) holds a
 * whole phone number of a person: they are masked (+1555***1111).
 */
export function assertLogsClean(params: { logs: readonly Record<string, unknown>[]; numbers: readonly string[] }): void {
  const all = params.logs.map((line) => JSON.stringify(line));
  assert.ok(all.length > 0, 'something was logged');
  for (const line of all) assert.ok(!line.includes(smsSetup.authToken), `the auth token was logged: ${line}`);
  const ours = params.logs.filter((line) => line['adapter'] === 'sms' || (line['component'] === 'http' && line['platform'] === 'sms')).map((line) => JSON.stringify(line));
  assert.ok(ours.length > 0, 'the SMS adapter logged something');
  for (const line of ours) for (const number of params.numbers) assert.ok(!line.includes(number), `a full phone number was logged: ${line}`);
}
