import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { EmailAccount, EmailConfig } from './config.js';
import { errorMessage } from '../../src/util/error-text.js';

/**
 * The SMTP transport of the account: implicit TLS, STARTTLS (required) or plain, per `smtp_tls`. nodemailer (~14 MB
 * of RSS) is loaded here, at the first send or check, not when the gateway starts.
 */
export async function createSmtpTransport(params: { config: EmailConfig; account: EmailAccount }): Promise<Transporter<SMTPTransport.SentMessageInfo>> {
  const { config, account } = params;
  const options: SMTPTransport.Options = {
    host: account.smtpHost,
    port: config.smtp_port,
    secure: config.smtp_tls === 'implicit',
    requireTLS: config.smtp_tls === 'starttls',
    ignoreTLS: config.smtp_tls === 'none',
    auth: { user: config.smtp_username ?? account.username, pass: config.smtp_password ?? account.password },
    connectionTimeout: 30_000,
    greetingTimeout: 30_000,
    socketTimeout: 60_000,
    logger: false,
    debug: false,
  };
  const { default: nodemailer } = await import('nodemailer');
  return nodemailer.createTransport(options);
}

/** The SMTP error's fields this adapter reads. */
interface SmtpErrorFields {
  readonly code?: string;
  readonly responseCode?: number;
  readonly response?: string;
}

/** A failed SMTP send as a clear Error: what the server said and what to do (the password never appears). */
export function describeSmtpError(params: { error: unknown; config: EmailConfig; host: string }): Error {
  const { error, config } = params;
  const fields: SmtpErrorFields = typeof error === 'object' && error !== null ? (error) : {};
  const where = `${params.host}:${config.smtp_port}`;
  if (fields.code === 'EAUTH') {
    return new Error(`the SMTP server ${where} refused the login: check platforms.email.smtp_username/smtp_password (or username/password)`, { cause: error });
  }
  const said = fields.response ?? errorMessage(error);
  const temporary = fields.responseCode !== undefined && fields.responseCode >= 400 && fields.responseCode < 500;
  return new Error(`SMTP ${where} did not take the mail${temporary ? ' (temporary, will retry)' : ''}: ${said}`, { cause: error });
}
