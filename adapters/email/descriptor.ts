import type { PlatformDescriptor } from '../../src/core/platform-descriptor.js';
import { setupChecks } from '../kit/setup-checks.js';
import type { EmailConfig } from './config-schema.js';

/** Email: a mailbox read over IMAP (IDLE) and answered over SMTP. */
export const email: PlatformDescriptor<'email', EmailConfig> = {
  name: 'email',
  title: 'Email',
  // The text is the plain part and its Markdown rendered the HTML part.
  formatting:
    'Write like an email: plain paragraphs and simple lists, no Markdown tables, no headings beyond a short title line, little emphasis. ' +
    'The text is also sent as is to mail clients that show plain text, so it must read well without rendering.',
  schema: async () => (await import('./config-schema.js')).emailSchema,
  load: async () => (await import('./factory.js')).emailFactory,
  credentialCheck: async () => (await import('./check.js')).emailCredentialCheck,
  setup: {
    intro: "The bot's own mailbox: IMAP to read, SMTP to answer (many providers want an app password).",
    fields: [
      { key: 'address', flag: 'address', label: "The bot's email address", ask: true, required: true, validate: (v) => (/^[^@\s]+@[^@\s]+$/.test(v) ? undefined : 'an email address like bot@example.com') },
      { key: 'imap_host', flag: 'imap-host', label: 'IMAP server', ask: true, required: true, validate: setupChecks.notEmpty('the IMAP host') },
      { key: 'imap_port', flag: 'imap-port', label: 'IMAP port', type: 'int', ask: true, required: false, fallback: '993', validate: setupChecks.port },
      { key: 'imap_tls', flag: 'imap-tls', label: 'IMAP over TLS (true/false)', type: 'bool', ask: false, required: false, validate: (v) => (v === 'true' || v === 'false' ? undefined : 'true or false') },
      { key: 'smtp_host', flag: 'smtp-host', label: 'SMTP server', ask: true, required: true, validate: setupChecks.notEmpty('the SMTP host') },
      { key: 'smtp_port', flag: 'smtp-port', label: 'SMTP port', type: 'int', ask: true, required: false, fallback: '465', validate: setupChecks.port },
      { key: 'smtp_tls', flag: 'smtp-tls', label: 'SMTP security: implicit, starttls or none', ask: false, required: false, validate: (v) => (['implicit', 'starttls', 'none'].includes(v) ? undefined : 'implicit, starttls or none') },
      { key: 'username', flag: 'username', label: 'Login name', ask: true, required: true, validate: setupChecks.notEmpty('the login name') },
      { key: 'password', flag: 'password', label: 'Password (or app password)', envName: 'EMAIL_PASSWORD', ask: true, required: true },
    ],
    owner: { label: 'Your own email address (Enter to skip)', hint: 'Mail from this address reaches the agent.', normalize: (value) => (/^[^@\s]+@[^@\s]+$/.test(value.trim()) ? value.trim().toLowerCase() : undefined) },
  },
  accounts: ({ config }) => [
    {
      keys: [config.address !== undefined ? 'address' : 'username', 'imap_host'],
      values: [(config.address ?? config.username)?.toLowerCase(), config.imap_host?.toLowerCase()],
    },
  ],
};
