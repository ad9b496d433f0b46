import { z } from 'zod';
import { bool, duration, int, optionalString, size } from './fields.js';

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
    api_root: z.string().url().default('https://api.telegram.org'),
    mode: z.enum(['polling', 'webhook']).default('polling'),
    webhook: z
      .strictObject({
        url: optionalString(),
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
    api_url: z.string().url().default('https://slack.com/api/'),
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
    api_url: z.string().url().default('https://discord.com/api'),
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

/** platforms.email */
export const emailSchema = z
  .strictObject({
    ...common,
    imap_host: optionalString(),
    imap_port: int({ min: 1, max: 65535 }).default(993),
    smtp_host: optionalString(),
    smtp_port: int({ min: 1, max: 65535 }).default(465),
    username: optionalString(),
    password: optionalString(),
    address: optionalString(),
  })
  .prefault({});

/** platforms.sms (Twilio) */
export const smsSchema = z
  .strictObject({
    ...common,
    account_sid: optionalString(),
    auth_token: optionalString(),
    from_number: optionalString(),
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
  })
  .prefault({});
