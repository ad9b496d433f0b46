import type { PlatformDescriptor } from '../../src/core/platform-descriptor.js';
import { setupChecks } from '../kit/setup-checks.js';
import type { SlackConfig } from './config-schema.js';

/** Slack: a Slack app through Bolt, Socket Mode or HTTP events. */
export const slack: PlatformDescriptor<'slack', SlackConfig> = {
  name: 'slack',
  title: 'Slack',
  // Markdown is converted to mrkdwn, so the model writes ordinary Markdown (mrkdwn written by hand would be mangled).
  formatting:
    'Write ordinary Markdown: it is converted to Slack mrkdwn, so **bold**, *italic*, `code`, code blocks, [links](https://example.com) and lists show formatted. ' +
    'Do not write mrkdwn yourself (*bold* would turn italic, <url|text> breaks). No tables (Slack shows them as raw text).',
  schema: async () => (await import('./config-schema.js')).slackSchema,
  load: async () => (await import('./factory.js')).slackFactory,
  credentialCheck: async () => (await import('./check.js')).slackCredentialCheck,
  setup: {
    intro: 'At api.slack.com/apps: the Bot User OAuth Token (xoxb-...) and, for Socket Mode, an app-level token (xapp-...) with connections:write.',
    fields: [
      { key: 'bot_token', flag: 'bot-token', label: 'Bot token (xoxb-...)', envName: 'SLACK_BOT_TOKEN', ask: true, required: true, validate: setupChecks.notEmpty('the bot token') },
      { key: 'mode', flag: 'mode', label: 'socket (no public URL needed) or http (Events API)', ask: false, required: false, validate: (v) => (v === 'socket' || v === 'http' ? undefined : 'socket or http') },
      { key: 'app_token', flag: 'app-token', label: 'App-level token (xapp-...)', envName: 'SLACK_APP_TOKEN', ask: true, required: (values) => values['mode'] !== 'http' },
      { key: 'signing_secret', flag: 'signing-secret', label: 'Signing secret (http mode)', envName: 'SLACK_SIGNING_SECRET', ask: true, required: (values) => values['mode'] === 'http' },
      { key: 'api_url', flag: 'api-url', label: 'Web API URL (a proxy or test server)', ask: false, required: false, validate: setupChecks.url },
    ],
    owner: {
      label: 'Your Slack member id (U...; Enter to skip)',
      hint: 'In Slack: your profile → ⋮ → "Copy member ID".',
      normalize: (value) => (/^[UW][A-Z0-9]{2,}$/.test(value.trim()) ? value.trim() : undefined),
    },
  },
  accounts: ({ config }) => [
    { keys: ['bot_token'], values: [config.bot_token] },
    { keys: ['app_token'], values: [config.app_token] },
  ],
};
