import { z } from 'zod';
import { bool, duration, int, optionalString, size, platformCommon } from '../../src/util/config-fields.js';

/** platforms.email: IMAP in (IDLE), SMTP out. Addresses in allowed_users match case-insensitively. */
export const emailSchema = z
  .strictObject({
    ...platformCommon,
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

/** What `platforms.email` holds once validated. */
export type EmailConfig = z.output<typeof emailSchema>;
