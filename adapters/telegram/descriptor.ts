import type { PlatformDescriptor } from '../../src/core/platform-descriptor.js';
import { setupChecks } from '../kit/setup-checks.js';
import type { TelegramConfig } from './config-schema.js';

/** Telegram: a bot through the Bot API (grammY), long polling or a webhook. */
export const telegram: PlatformDescriptor<'telegram', TelegramConfig> = {
  name: 'telegram',
  title: 'Telegram',
  // Markdown is rendered as Telegram HTML (raw HTML is escaped, tables become a monospace block of their source).
  formatting:
    'Write Markdown: **bold**, *italic*, `code`, code blocks, [links](https://example.com), > quotes and lists are shown formatted. ' +
    'No tables (they show as raw source) and no HTML tags (they show as text).',
  schema: async () => (await import('./config-schema.js')).telegramSchema,
  load: async () => (await import('./factory.js')).telegramFactory,
  credentialCheck: async () => (await import('./check.js')).telegramCredentialCheck,
  setup: {
    intro: 'Create a bot with @BotFather (/newbot) and copy its token.',
    fields: [
      { key: 'token', flag: 'token', label: 'Bot token from @BotFather', envName: 'TELEGRAM_BOT_TOKEN', ask: true, required: true, validate: setupChecks.notEmpty('the token') },
      { key: 'api_root', flag: 'api-root', label: 'Bot API root (a local Bot API server or proxy)', ask: false, required: false, validate: setupChecks.url },
    ],
    owner: {
      label: 'Your Telegram user id or @username (Enter to skip: you can pair later)',
      hint: 'The bot token cannot tell who you are: @userinfobot on Telegram answers with your numeric id (an id stays valid when you rename yourself).',
      normalize: (value) => (/^(?:\d{1,20}|@[A-Za-z0-9_]{5,32})$/.test(value.trim()) ? value.trim() : undefined),
    },
  },
  accounts: ({ config }) => [{ keys: ['token'], values: [config.token] }],
};
