import type { PlatformDescriptor } from '../../src/core/platform-descriptor.js';
import { setupChecks } from '../kit/setup-checks.js';
import type { DiscordConfig } from './config-schema.js';

/** Discord: a bot through discord.js (gateway websocket and REST). */
export const discord: PlatformDescriptor<'discord', DiscordConfig> = {
  name: 'discord',
  title: 'Discord',
  // Discord renders its own Markdown; a message holds 2000 characters.
  formatting:
    'Write Discord Markdown: **bold**, *italic*, `code`, code blocks, lists, > quotes and [links](https://example.com). No tables (Discord does not render them). A message holds at most 2000 characters; longer replies are split.',
  schema: async () => (await import('./config-schema.js')).discordSchema,
  load: async () => (await import('./factory.js')).discordFactory,
  credentialCheck: async () => (await import('./check.js')).discordCredentialCheck,
  setup: {
    intro: 'In the Discord developer portal: your application → Bot → Reset Token (and enable the Message Content intent).',
    fields: [
      { key: 'token', flag: 'token', label: 'Bot token', envName: 'DISCORD_BOT_TOKEN', ask: true, required: true, validate: setupChecks.notEmpty('the token') },
      { key: 'api_url', flag: 'api-url', label: 'REST API URL (a proxy or test server)', ask: false, required: false, validate: setupChecks.url },
    ],
    owner: {
      label: 'Your Discord user id (Enter to skip)',
      hint: 'Settings → Advanced → Developer Mode on, then right-click your name → "Copy User ID".',
      normalize: (value) => (/^\d{15,22}$/.test(value.trim()) ? value.trim() : undefined),
    },
  },
  accounts: ({ config }) => [{ keys: ['token'], values: [config.token] }],
};
