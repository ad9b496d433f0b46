import type { EmailConfig } from './config-schema.js';

export type { EmailConfig };

/** The settings the adapter cannot run without, checked once (the schema requires them when enabled). */
export interface EmailAccount {
  readonly imapHost: string;
  readonly smtpHost: string;
  readonly username: string;
  readonly password: string;
  /** The bot's own address (From of its replies), lowercase. */
  readonly address: string;
}

/** The account settings, or the dotted key that is missing (so the caller can say what to set). */
export function emailAccount(params: { config: EmailConfig }): EmailAccount | { readonly missing: string } {
  const { config } = params;
  const required = { imap_host: config.imap_host, smtp_host: config.smtp_host, username: config.username, password: config.password, address: config.address };
  for (const [key, value] of Object.entries(required)) if (value === undefined) return { missing: `platforms.email.${key}` };
  return {
    imapHost: config.imap_host ?? '',
    smtpHost: config.smtp_host ?? '',
    username: config.username ?? '',
    password: config.password ?? '',
    address: (config.address ?? '').toLowerCase(),
  };
}
