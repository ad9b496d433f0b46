import { randomUUID } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer/index.js';
import type { Logger } from 'pino';
import { EmailAdapter } from '../../adapters/email/adapter.js';
import { emailFactory } from '../../adapters/email/factory.js';
import { emailSchema } from '../../adapters/email/config-schema.js';
import type { AppConfig } from '../../src/app/config-schema.js';
import { appConfigSchema } from '../../src/app/config-schema.js';
import type { AdapterEntry } from '../../src/core/platform.js';
import type { Profile } from '../../src/home/index.js';
import type { Clock } from '../../src/core/clock.js';
import type { ContractPlatform } from '../contract/platform.js';
import { SmtpSink, type SunkMail } from '../fakes/smtp/sink.js';
import type { Dovecot } from './dovecot.js';
import { gatewayFacts } from './gateway-facts.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

/** The bot's own address in tests. */
export const botAddress = 'bot@example.com';

/** platforms.email for tests: plain IMAP to the test Dovecot, plain SMTP to the sink; overrides in config.yaml shape. */
export function emailConfig(params: { dovecot: Dovecot; sink: SmtpSink; overrides?: Record<string, unknown> }): AppConfig['platforms']['email'] {
  return emailSchema.parse({ ...emailConfigInput(params), ...params.overrides });
}

/** The config.yaml shape of platforms.email for the test servers. */
function emailConfigInput(params: { dovecot: Dovecot; sink: SmtpSink }): Record<string, unknown> {
  return {
    enabled: true,
    imap_host: params.dovecot.host,
    imap_port: params.dovecot.port,
    imap_tls: false,
    smtp_host: '127.0.0.1',
    smtp_port: params.sink.port,
    smtp_tls: 'none',
    username: params.dovecot.user.username,
    password: params.dovecot.user.password,
    address: botAddress,
    display_name: 'Hermes Test',
    trusted_auth_server: testAuthServer,
  };
}

/** Builds an email adapter against the test Dovecot and SMTP sink. */
export function emailAdapter(params: { dovecot: Dovecot; sink: SmtpSink; cacheDir: string; clock: Clock; logger: Logger; overrides?: Record<string, unknown> }): EmailAdapter {
  return new EmailAdapter({
    config: emailConfig({ dovecot: params.dovecot, sink: params.sink, ...(params.overrides ? { overrides: params.overrides } : {}) }),
    cacheDir: params.cacheDir,
    clock: params.clock,
    logger: params.logger,
  });
}

/**
 * The adapter entry exactly as `gateway run` builds it (emailFactory from a parsed config), so allowlist
 * lowercasing and the unauthorized default are what users get.
 */
export function emailEntry(params: { dovecot: Dovecot; sink: SmtpSink; profile: Profile; clock: Clock; logger: Logger; overrides?: Record<string, unknown> }): AdapterEntry {
  const parsed = configSchema.parse({ platforms: { email: { ...emailConfigInput({ dovecot: params.dovecot, sink: params.sink }), ...params.overrides } } });
  return emailFactory({ config: parsed.platforms.email, cacheDir: params.profile.cacheDir, skillCommands: () => [], gateway: gatewayFacts({ profile: params.profile, config: parsed }), clock: params.clock, logger: params.logger });
}

/** What a test mail is made of. */
export interface TestMail {
  readonly from: string;
  readonly subject: string;
  readonly text?: string;
  readonly html?: string;
  readonly messageId?: string;
  readonly inReplyTo?: string;
  readonly references?: readonly string[];
  readonly headers?: Record<string, string>;
  readonly attachments?: readonly { filename: string; content: Buffer }[];
  /**
   * What the test mail provider's Authentication-Results header says of the From domain (default: dmarc=pass,
   * as a real provider writes for genuine mail); 'none' leaves the header out.
   */
  readonly auth?: 'pass' | 'fail' | 'none';
}

/** The authserv-id of the test "mail provider" (platforms.email.trusted_auth_server in the tests). */
export const testAuthServer = 'mx.hermes.test';

/** A raw RFC 822 mail (nodemailer's composer) and its Message-ID (with brackets). */
export async function composeRaw(params: TestMail): Promise<{ raw: Buffer; messageId: string }> {
  const messageId = params.messageId ?? `<${randomUUID()}@example.org>`;
  const node = new MailComposer({
    from: params.from,
    to: botAddress,
    subject: params.subject,
    messageId,
    ...(params.text !== undefined ? { text: params.text } : {}),
    ...(params.html !== undefined ? { html: params.html } : {}),
    ...(params.inReplyTo !== undefined ? { inReplyTo: params.inReplyTo } : {}),
    ...(params.references !== undefined ? { references: [...params.references] } : {}),
    headers: { ...authResults({ from: params.from, auth: params.auth ?? 'pass' }), ...params.headers },
    ...(params.attachments !== undefined ? { attachments: params.attachments.map((a) => ({ filename: a.filename, content: a.content })) } : {}),
  }).compile();
  const raw = await new Promise<Buffer>((resolve, reject) => node.build((error, message) => (error ? reject(error) : resolve(message))));
  return { raw, messageId };
}

/** The header the test provider adds on receipt: its DMARC verdict on the From domain. */
function authResults(params: { from: string; auth: 'pass' | 'fail' | 'none' }): Record<string, string> {
  if (params.auth === 'none') return {};
  const domain = params.from.slice(params.from.lastIndexOf('@') + 1).replace(/>.*$/, '');
  return { 'Authentication-Results': `${testAuthServer}; dmarc=${params.auth} header.from=${domain}` };
}

/** A reply to a mail the bot sent, as a mail client writes it (threading headers, quoted text below). */
export async function replyTo(params: { mail: SunkMail; from: string; text: string }): Promise<{ raw: Buffer; messageId: string }> {
  const original = params.mail.parsed;
  const id = original.messageId ?? '';
  const references = [...(Array.isArray(original.references) ? original.references : original.references ? [original.references] : []), id];
  const quoted = (original.text ?? '').split('\n').map((line) => `> ${line}`).join('\n');
  return composeRaw({
    from: params.from,
    subject: `Re: ${original.subject ?? ''}`,
    text: `${params.text}\n\nOn Mon, 1 Jan 2024 at 10:00, Hermes Test <${botAddress}> wrote:\n${quoted}\n`,
    inReplyTo: id,
    references,
  });
}

/** The text of a mail the bot sent, as its recipient reads it. */
export function shownText(params: { mail: SunkMail }): string {
  return (params.mail.parsed.text ?? '').replace(/\n$/, '');
}

/**
 * Email as a contract platform: the adapter against a real Dovecot (in) and an SMTP sink (out). The Dovecot may
 * be shared by several platforms one after another (each new adapter starts reading at the folder's end).
 */
export async function emailPlatform(params: { dovecot: Dovecot }): Promise<ContractPlatform> {
  const { dovecot } = params;
  const sink = new SmtpSink();
  await sink.start();
  const owner = { id: 'owner@example.org', chatId: 'owner@example.org' };
  const stranger = { id: 'stranger@example.net', chatId: 'stranger@example.net' };
  let adapter: EmailAdapter | undefined;
  let last: Buffer | undefined;
  return {
    owner,
    stranger,
    entry: ({ profile, clock, logger }) => {
      adapter ??= emailAdapter({ dovecot, sink, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [owner.id] } });
      return { adapter, allow: [owner.id], unauthorized: 'ignore' };
    },
    userSays: async ({ user, text, file }) => {
      // Mail that is already in the folder when the adapter first opens it is left alone: wait for it.
      await adapter?.ready();
      const { raw } = await composeRaw({
        from: `User <${user.id}>`,
        subject: `Note ${randomUUID().slice(0, 8)}`,
        text,
        ...(file ? { attachments: [{ filename: file.fileName, content: file.bytes }] } : {}),
      });
      last = raw;
      await dovecot.append({ raw });
    },
    redeliverLast: async () => {
      if (!last) throw new Error('nothing to redeliver');
      await dovecot.append({ raw: last });
    },
    botMessages: ({ chatId }) =>
      sink.mailsTo({ address: chatId }).map((mail) => {
        const file = mail.parsed.attachments[0];
        return { text: shownText({ mail }), ...(file ? { file: { name: file.filename ?? '', bytes: file.content } } : {}) };
      }),
    visibleLength: ({ text }) => text.length,
    close: async () => {
      await sink.close();
    },
  };
}
