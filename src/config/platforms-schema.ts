import { z } from 'zod';
// Temporary upward import: the api platform keeps its schema in its own folder (to be turned around with the platform descriptors).
import { apiSchema } from '../../adapters/api/config.js';
import { normalizePhone } from '../util/phone.js';
import { bool, duration, httpUrl, httpUrlProblem, int, optionalHttpUrl, optionalString, size } from './fields.js';

/**
 * A platform user id. Unquoted YAML ids arrive as numbers: safe integers are turned back into text;
 * anything larger (e.g. Discord snowflakes, which lose digits) must be quoted and is rejected.
 */
function userId(): z.ZodType<string, unknown> {
  return z.preprocess((value) => (Number.isSafeInteger(value) ? String(value) : value), z.string().min(1));
}

/** Fields every platform block has. A platform is enabled ONLY by `enabled: true`, never by a token alone. */
const common = {
  /** Turn the platform on. */
  enabled: bool().default(false),
  /** Platform user ids allowed to talk to the agent. */
  allowed_users: z.array(userId()).default([]),
};

/** platforms.telegram */
export const telegramSchema = z
  .strictObject({
    ...common,
    token: optionalString(),
    api_root: httpUrl().default('https://api.telegram.org'),
    mode: z.enum(['polling', 'webhook']).default('polling'),
    webhook: z
      .strictObject({
        url: optionalHttpUrl(),
        path: z.string().startsWith('/').default('/telegram/webhook'),
        secret_token: optionalString(),
      })
      .prefault({}),
    unauthorized: z.enum(['pair', 'ignore']).default('pair'),
    free_response_chats: z.array(userId()).default([]),
    edited_messages: z.enum(['ignore', 'new_turn']).default('ignore'),
    max_file_size: size({ defaultValue: '20m' }),
    merge_window: duration({ defaultValue: '1s' }),
    group_interval: duration({ defaultValue: '3s' }),
  })
  .superRefine((block, ctx) => {
    if (!block.enabled) return;
    if (block.token === undefined) {
      ctx.addIssue({ code: 'custom', path: ['token'], message: 'a bot token from @BotFather (required when enabled: true)' });
    }
    if (block.mode === 'webhook' && block.webhook.url === undefined) {
      ctx.addIssue({ code: 'custom', path: ['webhook', 'url'], message: 'the public https URL Telegram posts updates to (required in webhook mode)' });
    }
    if (block.mode === 'webhook' && (block.webhook.secret_token === undefined || !/^[A-Za-z0-9_-]{16,256}$/.test(block.webhook.secret_token))) {
      ctx.addIssue({
        code: 'custom',
        path: ['webhook', 'secret_token'],
        message: '16-256 characters of A-Z, a-z, 0-9, _ and - (required in webhook mode; Telegram sends it back on every request)',
      });
    }
  })
  .prefault({});

/** platforms.slack */
export const slackSchema = z
  .strictObject({
    ...common,
    bot_token: optionalString(),
    app_token: optionalString(),
    signing_secret: optionalString(),
    mode: z.enum(['socket', 'http']).default('socket'),
    api_url: httpUrl().default('https://slack.com/api/'),
    events_path: z.string().startsWith('/').default('/slack/events'),
    reply_in_thread: bool().default(true),
    strict_mention: bool().default(false),
    allowed_bots: z.array(z.string()).default([]),
    unauthorized: z.enum(['pair', 'ignore']).default('pair'),
    max_file_size: size({ defaultValue: '20m' }),
    merge_window: duration({ defaultValue: '1s' }),
    liveness_timeout: duration({ defaultValue: '30s', minMs: 1000 }),
  })
  .superRefine((block, ctx) => {
    if (!block.enabled) return;
    if (block.bot_token === undefined) ctx.addIssue({ code: 'custom', path: ['bot_token'], message: 'the bot token (xoxb-...) (required when enabled: true)' });
    if (block.mode === 'socket' && block.app_token === undefined) {
      ctx.addIssue({ code: 'custom', path: ['app_token'], message: 'an app-level token (xapp-...) with connections:write (required in socket mode)' });
    }
    if (block.mode === 'http' && block.signing_secret === undefined) {
      ctx.addIssue({ code: 'custom', path: ['signing_secret'], message: "the app's signing secret (required in http mode)" });
    }
  })
  .prefault({});

/** platforms.discord */
export const discordSchema = z
  .strictObject({
    ...common,
    token: optionalString(),
    api_url: httpUrl().default('https://discord.com/api'),
    unauthorized: z.enum(['pair', 'ignore']).default('pair'),
    free_response_channels: z.array(userId()).default([]),
    allowed_channels: z.array(userId()).default([]),
    ignored_channels: z.array(userId()).default([]),
    allowed_roles: z.array(userId()).default([]),
    auto_thread: z.boolean().default(false),
    reactions: bool().default(false),
    max_file_size: size({ defaultValue: '10m' }),
    merge_window: duration({ defaultValue: '1s' }),
  })
  .superRefine((block, ctx) => {
    if (block.enabled && block.token === undefined) {
      ctx.addIssue({ code: 'custom', path: ['token'], message: 'a bot token from the Discord developer portal (required when enabled: true)' });
    }
  })
  .prefault({});

/** platforms.email: IMAP in (IDLE), SMTP out. Addresses in allowed_users match case-insensitively. */
export const emailSchema = z
  .strictObject({
    ...common,
    imap_host: optionalString(),
    imap_port: int({ min: 1, max: 65535 }).default(993),
    imap_tls: bool().default(true),
    smtp_host: optionalString(),
    smtp_port: int({ min: 1, max: 65535 }).default(465),
    smtp_tls: z.enum(['implicit', 'starttls', 'none']).default('implicit'),
    username: optionalString(),
    password: optionalString(),
    smtp_username: optionalString(),
    smtp_password: optionalString(),
    address: optionalString(),
    display_name: optionalString(),
    folder: z.string().min(1).default('INBOX'),
    after_reply: z.enum(['seen', 'move']).default('seen'),
    move_to: optionalString(),
    poll_interval: duration({ defaultValue: '60s', minMs: 1000 }),
    max_attachment_size: size({ defaultValue: '10m' }),
    unauthorized: z.enum(['pair', 'ignore']).default('ignore'),
    verify_sender: z.enum(['auth-results', 'off']).default('auth-results'),
    trusted_auth_server: optionalString(),
  })
  .superRefine((block, ctx) => {
    if (!block.enabled) return;
    const required: [keyof typeof block, string][] = [
      ['imap_host', 'the IMAP server host name (required when enabled: true)'],
      ['smtp_host', 'the SMTP server host name (required when enabled: true)'],
      ['username', 'the mailbox login name (required when enabled: true)'],
      ['password', 'the mailbox password or app password (required when enabled: true)'],
      ['address', "the bot's own email address, used as From (required when enabled: true)"],
    ];
    for (const [key, message] of required) if (block[key] === undefined) ctx.addIssue({ code: 'custom', path: [key], message });
    if (block.address !== undefined && !/^[^@\s]+@[^@\s]+$/.test(block.address)) {
      ctx.addIssue({ code: 'custom', path: ['address'], message: 'an email address like bot@example.com' });
    }
    if (block.after_reply === 'move' && block.move_to === undefined) {
      ctx.addIssue({ code: 'custom', path: ['move_to'], message: 'the IMAP folder answered mail is moved to (required with after_reply: move)' });
    }
  })
  .prefault({});

/**
 * A phone number in E.164 form, normalized on load ("+1 555-123-4567" → "+15551234567"). An unquoted
 * +15551234567 reaches us as a YAML number without its plus, so numbers are refused with a hint to quote them.
 */
function phoneNumber(): z.ZodType<string, unknown> {
  return z.unknown().transform((value, ctx): string => {
    if (typeof value === 'number') {
      ctx.addIssue({ code: 'custom', message: `quote phone numbers ("+${value}"): YAML reads an unquoted +${value} as a number and drops the +`, input: value });
      return z.NEVER;
    }
    const normalized = typeof value === 'string' ? normalizePhone({ value }) : undefined;
    if (normalized === undefined) {
      ctx.addIssue({ code: 'custom', message: 'a phone number in E.164 form with its country code, e.g. "+15551234567"', input: value });
      return z.NEVER;
    }
    return normalized;
  });
}

/** platforms.sms (Twilio). Enabled only by `enabled: true`, never because TWILIO_* variables exist. */
export const smsSchema = z
  .strictObject({
    enabled: bool().default(false),
    allowed_users: z.array(phoneNumber()).default([]),
    account_sid: optionalString(),
    auth_token: optionalString(),
    from_number: z.preprocess((value) => (value === '' || value === null ? undefined : value), phoneNumber().optional()).optional(),
    messaging_service_sid: optionalString(),
    webhook_url: optionalString(),
    webhook_path: z.string().startsWith('/').default('/sms/twilio'),
    api_base: httpUrl().default('https://api.twilio.com'),
    max_media_size: size({ defaultValue: '5m' }),
    media_url_ttl: duration({ defaultValue: '1h', minMs: 60_000 }),
    unauthorized: z.enum(['pair', 'ignore']).default('pair'),
  })
  .superRefine((block, ctx) => {
    // Checked as the other URLs are (the scheme named), but only here: it may be unset while SMS is off.
    const webhookProblem = block.webhook_url === undefined ? undefined : httpUrlProblem({ text: block.webhook_url });
    if (webhookProblem !== undefined) ctx.addIssue({ code: 'custom', path: ['webhook_url'], message: webhookProblem, input: block.webhook_url });
    if (block.messaging_service_sid !== undefined && !block.messaging_service_sid.startsWith('MG')) {
      ctx.addIssue({ code: 'custom', path: ['messaging_service_sid'], message: 'a Messaging Service SID (MG...)' });
    }
    if (!block.enabled) return;
    if (block.account_sid === undefined || !block.account_sid.startsWith('AC')) {
      ctx.addIssue({ code: 'custom', path: ['account_sid'], message: 'the Twilio account SID (AC...) (required when enabled: true)' });
    }
    if (block.auth_token === undefined) {
      ctx.addIssue({ code: 'custom', path: ['auth_token'], message: 'the Twilio auth token (required when enabled: true; it also verifies webhook signatures)' });
    }
    if (block.from_number === undefined && block.messaging_service_sid === undefined) {
      ctx.addIssue({ code: 'custom', path: ['from_number'], message: 'the Twilio number replies come from, or set messaging_service_sid (one is required when enabled: true)' });
    }
    if (block.webhook_url === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['webhook_url'],
        message:
          'the public URL Twilio posts incoming messages to, exactly as set in the Twilio console (required when enabled: true: ' +
          'Twilio signs each request over that URL, so without it no request can be verified, and picture links are built from it)',
      });
    }
  })
  .prefault({});

/** The `platforms:` block. */
export const platformsSchema = z
  .strictObject({
    telegram: telegramSchema,
    slack: slackSchema,
    discord: discordSchema,
    email: emailSchema,
    sms: smsSchema,
    api: apiSchema,
  })
  .prefault({});
