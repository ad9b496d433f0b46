import type { PlatformDescriptor } from '../../src/core/platform-descriptor.js';
import { setupChecks } from '../kit/setup-checks.js';
import type { SmsConfig } from './config-schema.js';

/** SMS and MMS through Twilio (webhooks in, REST out). */
export const sms: PlatformDescriptor<'sms', SmsConfig> = {
  name: 'sms',
  title: 'SMS (Twilio)',
  // Markdown is stripped to plain text.
  formatting:
    'Plain text only, no Markdown at all (no asterisks, #, backticks, tables or [links](...); write URLs out). Keep replies short: an SMS is about 160 characters and a reply is cut into messages of 1600.',
  schema: async () => (await import('./config-schema.js')).smsSchema,
  load: async () => (await import('./factory.js')).smsFactory,
  credentialCheck: async () => (await import('./check.js')).smsCredentialCheck,
  setup: {
    intro: 'From the Twilio console: the Account SID (AC...), the Auth Token, your Twilio number, and the public URL Twilio will post messages to.',
    fields: [
      { key: 'account_sid', flag: 'account-sid', label: 'Account SID (AC...)', ask: true, required: true, validate: (v) => (/^AC[0-9a-zA-Z]{8,}$/.test(v) ? undefined : 'an Account SID, AC...') },
      { key: 'auth_token', flag: 'auth-token', label: 'Auth Token', envName: 'TWILIO_AUTH_TOKEN', ask: true, required: true },
      { key: 'from_number', flag: 'from-number', label: 'Your Twilio number (+15551234567)', ask: true, required: true, phone: true },
      { key: 'webhook_url', flag: 'webhook-url', label: 'Public URL Twilio posts to (as set in the console)', ask: true, required: true, validate: setupChecks.url },
      { key: 'api_base', flag: 'api-base', label: 'REST API base (a Twilio-compatible provider or test server)', ask: false, required: false, validate: setupChecks.url },
    ],
    owner: { label: 'Your own phone number (+1555...; Enter to skip)', hint: 'Texts from this number reach the agent.', normalize: (value) => value.trim(), phone: true },
  },
  accounts: ({ config }) => [
    config.from_number !== undefined
      ? { keys: ['account_sid', 'from_number'], values: [config.account_sid, config.from_number] }
      : { keys: ['account_sid', 'messaging_service_sid'], values: [config.account_sid, config.messaging_service_sid] },
  ],
};
