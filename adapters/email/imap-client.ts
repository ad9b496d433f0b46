import { ImapFlow } from 'imapflow';
import { AdapterFatalError } from '../../src/core/errors.js';
import { expectedFailureCause } from '../../src/util/net-failure.js';
import type { EmailAccount, EmailConfig } from './config.js';
import { errorMessage } from '../../src/util/error-text.js';

/** An IMAP client for the account (not yet connected): implicit TLS unless `imap_tls: false`. */
export function createImapClient(params: { config: EmailConfig; account: EmailAccount }): ImapFlow {
  const { config, account } = params;
  return new ImapFlow({
    host: account.imapHost,
    port: config.imap_port,
    secure: config.imap_tls,
    // Plain means plain: no opportunistic STARTTLS a local test server cannot do.
    doSTARTTLS: config.imap_tls ? undefined : false,
    auth: { user: account.username, pass: account.password },
    logger: false,
    disableAutoIdle: true,
    connectionTimeout: 30_000,
    greetingTimeout: 16_000,
  });
}

/** The IMAP error's fields this adapter reads. */
interface ImapErrorFields {
  readonly authenticationFailed?: boolean;
  readonly mailboxMissing?: boolean;
  readonly code?: string;
  readonly responseText?: string;
  readonly tlsFailed?: boolean;
}

/** The fields of an error thrown by imapflow (all optional). */
export function imapErrorFields(params: { error: unknown }): ImapErrorFields {
  return typeof params.error === 'object' && params.error !== null ? (params.error) : {};
}

/** A one-line description of an IMAP failure, without secrets (imapflow errors never carry the password). */
export function describeImapError(params: { error: unknown }): string {
  const { error } = params;
  const fields = imapErrorFields({ error });
  const message = errorMessage(error);
  const detail = fields.responseText !== undefined && !message.includes(fields.responseText) ? ` (${fields.responseText})` : '';
  return `${message}${detail}${fields.code !== undefined && !message.includes(fields.code) ? ` [${fields.code}]` : ''}`;
}

/**
 * Turns a failed connect or folder open into what the supervisor needs: a refused login or a missing folder is
 * fatal with a hint (retrying cannot fix it); anything else (network, server restarting) is retried.
 */
export function classifyImapError(params: { error: unknown; config: EmailConfig; host: string }): Error {
  const { error, config, host } = params;
  const fields = imapErrorFields({ error });
  const where = `${host}:${config.imap_port}`;
  if (fields.authenticationFailed === true) {
    return new AdapterFatalError({
      message: `the IMAP server ${where} refused the login for platforms.email.username`,
      hint: 'Check platforms.email.username and password (many providers want an app password for IMAP), then restart.',
      cause: error,
    });
  }
  if (fields.mailboxMissing === true) {
    return new AdapterFatalError({
      message: `the IMAP folder "${config.folder}" does not exist on ${where}`,
      hint: 'Create the folder or fix platforms.email.folder, then restart.',
      cause: error,
    });
  }
  if (fields.tlsFailed === true) {
    return new Error(`TLS with the IMAP server ${where} failed: ${describeImapError({ error })} (is imap_port the implicit-TLS port, usually 993?)`, { cause: error });
  }
  // An expected failure (refused, DNS, timeout) in words, after which server it was: "IMAP 10.0.0.5:993: connection refused ...".
  const said = expectedFailureCause({ error }) ?? describeImapError({ error });
  return new ImapServerError({ message: `IMAP ${where}: ${said}`, address: host, port: config.imap_port, cause: error });
}

/** A retryable IMAP failure; `address` and `port` name the server as node's connection errors do, so log lines say where. */
export class ImapServerError extends Error {
  override readonly name = 'ImapServerError';
  /** The IMAP host as configured. */
  readonly address: string;
  /** The IMAP port. */
  readonly port: number;

  constructor(params: { message: string; address: string; port: number; cause: unknown }) {
    super(params.message, { cause: params.cause });
    this.address = params.address;
    this.port = params.port;
  }
}
