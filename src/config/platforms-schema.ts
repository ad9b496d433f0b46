import { z } from 'zod';
import { bool, int, optionalString } from './fields.js';

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
export const telegramSchema = z.strictObject({ ...common, token: optionalString() }).prefault({});

/** platforms.slack */
export const slackSchema = z
  .strictObject({
    ...common,
    bot_token: optionalString(),
    app_token: optionalString(),
    signing_secret: optionalString(),
  })
  .prefault({});

/** platforms.discord */
export const discordSchema = z.strictObject({ ...common, token: optionalString() }).prefault({});

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
