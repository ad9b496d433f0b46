import type { PlatformName } from '../../config/schema.js';
import type { CredentialCheck } from '../../../adapters/kit/credential-check.js';

/** One setting a platform section asks for (or takes from its flag). */
export interface PlatformField {
  /** The key under platforms.<name>. */
  readonly key: string;
  /** The command-line flag without dashes (e.g. "token" for --token). */
  readonly flag: string;
  /** The question, and the flag's help. */
  readonly label: string;
  /** A secret: its value goes to .env under this variable and config.yaml gets `${VAR}`. */
  readonly envName?: string;
  /** How the value is written to YAML. */
  readonly type?: 'string' | 'int' | 'bool';
  /** Asked interactively (false: flag only, e.g. an API base URL for tests and proxies). */
  readonly ask: boolean;
  /** Whether the platform cannot work without it, given the other values chosen so far. */
  readonly required: boolean | ((values: Readonly<Record<string, unknown>>) => boolean);
  /** Used when nothing is given and config.yaml has no value. */
  readonly fallback?: string;
  /** What is wrong with a value, or undefined. */
  readonly validate?: (value: string) => string | undefined;
  /** A phone number: checked (and normalized to E.164) by the section, which loads the SMS adapter's phone module. */
  readonly phone?: boolean;
}

/** How the owner's id is asked for and checked. */
export interface OwnerField {
  /** The question. */
  readonly label: string;
  /** Where to find it. */
  readonly hint: string;
  /** The id in the form allowed_users wants, or undefined when it is not one (for `phone`: the section normalizes). */
  readonly normalize: (value: string) => string | undefined;
  /** A phone number (normalized to E.164 by the section). */
  readonly phone?: boolean;
}

/** A platform's setup section. */
export interface PlatformSpec {
  /** The config name. */
  readonly name: PlatformName;
  /** For messages ("Telegram"). */
  readonly title: string;
  /** Where to get the credentials. */
  readonly intro: string;
  /** The settings, in the order asked. */
  readonly fields: readonly PlatformField[];
  /** The owner, added to allowed_users. */
  readonly owner: OwnerField;
  /** The live check `hermes doctor` runs too (loaded when the section runs). */
  readonly check: () => Promise<CredentialCheck>;
}

const notEmpty = (what: string) => (value: string): string | undefined => (value.trim() === '' ? `${what} is needed` : undefined);
const port = (value: string): string | undefined => (/^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 65535 ? undefined : 'a port number, 1-65535');
const url = (value: string): string | undefined => (/^https?:\/\/[^/?#\s]+/i.test(value) ? undefined : 'an http(s) URL');

/** The platforms `hermes setup` has a section for: the API (platforms.api) has none yet (its keys are a list). */
export type SetupPlatformName = Exclude<PlatformName, 'api'>;

/** The five platform sections (no adapter module is imported here: `hermes status` loads this file too). */
export const platformSpecs: Readonly<Record<SetupPlatformName, PlatformSpec>> = {
  telegram: {
    name: 'telegram',
    title: 'Telegram',
    intro: 'Create a bot with @BotFather (/newbot) and copy its token.',
    fields: [
      { key: 'token', flag: 'token', label: 'Bot token from @BotFather', envName: 'TELEGRAM_BOT_TOKEN', ask: true, required: true, validate: notEmpty('the token') },
      { key: 'api_root', flag: 'api-root', label: 'Bot API root (a local Bot API server or proxy)', ask: false, required: false, validate: url },
    ],
    owner: {
      label: 'Your Telegram user id or @username (Enter to skip: you can pair later)',
      hint: 'The bot token cannot tell who you are: @userinfobot on Telegram answers with your numeric id (an id stays valid when you rename yourself).',
      normalize: (value) => (/^(?:\d{1,20}|@[A-Za-z0-9_]{5,32})$/.test(value.trim()) ? value.trim() : undefined),
    },
    check: async () => (await import('../../../adapters/telegram/check.js')).telegramCredentialCheck,
  },
  slack: {
    name: 'slack',
    title: 'Slack',
    intro: 'At api.slack.com/apps: the Bot User OAuth Token (xoxb-...) and, for Socket Mode, an app-level token (xapp-...) with connections:write.',
    fields: [
      { key: 'bot_token', flag: 'bot-token', label: 'Bot token (xoxb-...)', envName: 'SLACK_BOT_TOKEN', ask: true, required: true, validate: notEmpty('the bot token') },
      { key: 'mode', flag: 'mode', label: 'socket (no public URL needed) or http (Events API)', ask: false, required: false, validate: (v) => (v === 'socket' || v === 'http' ? undefined : 'socket or http') },
      { key: 'app_token', flag: 'app-token', label: 'App-level token (xapp-...)', envName: 'SLACK_APP_TOKEN', ask: true, required: (values) => values['mode'] !== 'http' },
      { key: 'signing_secret', flag: 'signing-secret', label: 'Signing secret (http mode)', envName: 'SLACK_SIGNING_SECRET', ask: true, required: (values) => values['mode'] === 'http' },
      { key: 'api_url', flag: 'api-url', label: 'Web API URL (a proxy or test server)', ask: false, required: false, validate: url },
    ],
    owner: {
      label: 'Your Slack member id (U...; Enter to skip)',
      hint: 'In Slack: your profile → ⋮ → "Copy member ID".',
      normalize: (value) => (/^[UW][A-Z0-9]{2,}$/.test(value.trim()) ? value.trim() : undefined),
    },
    check: async () => (await import('../../../adapters/slack/check.js')).slackCredentialCheck,
  },
  discord: {
    name: 'discord',
    title: 'Discord',
    intro: 'In the Discord developer portal: your application → Bot → Reset Token (and enable the Message Content intent).',
    fields: [
      { key: 'token', flag: 'token', label: 'Bot token', envName: 'DISCORD_BOT_TOKEN', ask: true, required: true, validate: notEmpty('the token') },
      { key: 'api_url', flag: 'api-url', label: 'REST API URL (a proxy or test server)', ask: false, required: false, validate: url },
    ],
    owner: {
      label: 'Your Discord user id (Enter to skip)',
      hint: 'Settings → Advanced → Developer Mode on, then right-click your name → "Copy User ID".',
      normalize: (value) => (/^\d{15,22}$/.test(value.trim()) ? value.trim() : undefined),
    },
    check: async () => (await import('../../../adapters/discord/check.js')).discordCredentialCheck,
  },
  email: {
    name: 'email',
    title: 'Email',
    intro: "The bot's own mailbox: IMAP to read, SMTP to answer (many providers want an app password).",
    fields: [
      { key: 'address', flag: 'address', label: "The bot's email address", ask: true, required: true, validate: (v) => (/^[^@\s]+@[^@\s]+$/.test(v) ? undefined : 'an email address like bot@example.com') },
      { key: 'imap_host', flag: 'imap-host', label: 'IMAP server', ask: true, required: true, validate: notEmpty('the IMAP host') },
      { key: 'imap_port', flag: 'imap-port', label: 'IMAP port', type: 'int', ask: true, required: false, fallback: '993', validate: port },
      { key: 'imap_tls', flag: 'imap-tls', label: 'IMAP over TLS (true/false)', type: 'bool', ask: false, required: false, validate: (v) => (v === 'true' || v === 'false' ? undefined : 'true or false') },
      { key: 'smtp_host', flag: 'smtp-host', label: 'SMTP server', ask: true, required: true, validate: notEmpty('the SMTP host') },
      { key: 'smtp_port', flag: 'smtp-port', label: 'SMTP port', type: 'int', ask: true, required: false, fallback: '465', validate: port },
      { key: 'smtp_tls', flag: 'smtp-tls', label: 'SMTP security: implicit, starttls or none', ask: false, required: false, validate: (v) => (['implicit', 'starttls', 'none'].includes(v) ? undefined : 'implicit, starttls or none') },
      { key: 'username', flag: 'username', label: 'Login name', ask: true, required: true, validate: notEmpty('the login name') },
      { key: 'password', flag: 'password', label: 'Password (or app password)', envName: 'EMAIL_PASSWORD', ask: true, required: true },
    ],
    owner: { label: 'Your own email address (Enter to skip)', hint: 'Mail from this address reaches the agent.', normalize: (value) => (/^[^@\s]+@[^@\s]+$/.test(value.trim()) ? value.trim().toLowerCase() : undefined) },
    check: async () => (await import('../../../adapters/email/check.js')).emailCredentialCheck,
  },
  sms: {
    name: 'sms',
    title: 'SMS (Twilio)',
    intro: 'From the Twilio console: the Account SID (AC...), the Auth Token, your Twilio number, and the public URL Twilio will post messages to.',
    fields: [
      { key: 'account_sid', flag: 'account-sid', label: 'Account SID (AC...)', ask: true, required: true, validate: (v) => (/^AC[0-9a-zA-Z]{8,}$/.test(v) ? undefined : 'an Account SID, AC...') },
      { key: 'auth_token', flag: 'auth-token', label: 'Auth Token', envName: 'TWILIO_AUTH_TOKEN', ask: true, required: true },
      { key: 'from_number', flag: 'from-number', label: 'Your Twilio number (+15551234567)', ask: true, required: true, phone: true },
      { key: 'webhook_url', flag: 'webhook-url', label: 'Public URL Twilio posts to (as set in the console)', ask: true, required: true, validate: url },
      { key: 'api_base', flag: 'api-base', label: 'REST API base (a Twilio-compatible provider or test server)', ask: false, required: false, validate: url },
    ],
    owner: { label: 'Your own phone number (+1555...; Enter to skip)', hint: 'Texts from this number reach the agent.', normalize: (value) => value.trim(), phone: true },
    check: async () => (await import('../../../adapters/sms/check.js')).smsCredentialCheck,
  },
};
