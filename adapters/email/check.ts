import { describeNetworkError } from '../kit/net-error.js';
import type { CredentialCheck, CredentialCheckResult } from '../../src/core/platform-descriptor.js';
import { emailAccount, type EmailAccount, type EmailConfig } from './config.js';
import { createImapClient, describeImapError, imapErrorFields } from './imap-client.js';
import { createSmtpTransport } from './smtp.js';
import { errorMessage } from '../../src/util/error-text.js';

/** Rejects when `signal` aborts (with its reason), so a hanging server cannot hold the check. */
function abortable<T>(params: { work: Promise<T>; signal: AbortSignal; onAbort: () => void }): Promise<T> {
  const { signal } = params;
  return new Promise<T>((resolve, reject) => {
    const stop = (): void => {
      params.onAbort();
      reject(signal.reason instanceof Error ? signal.reason : new Error('the check was stopped'));
    };
    signal.addEventListener('abort', stop, { once: true });
    params.work.then(
      (value) => {
        signal.removeEventListener('abort', stop);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', stop);
        reject(error);
      },
    );
    if (signal.aborted) stop();
  });
}

/** IMAP: log in, open the folder, log out. */
async function checkImap(params: { config: EmailConfig; account: EmailAccount; signal: AbortSignal }): Promise<CredentialCheckResult | undefined> {
  const { config, account, signal } = params;
  const where = `${account.imapHost}:${config.imap_port}`;
  const client = createImapClient({ config, account });
  client.on('error', () => undefined);
  try {
    await abortable({ work: client.connect(), signal, onAbort: () => client.close() });
    await abortable({ work: client.mailboxOpen(config.folder, { readOnly: true }), signal, onAbort: () => client.close() });
    await abortable({ work: client.logout(), signal, onAbort: () => client.close() });
    return undefined;
  } catch (error) {
    client.close();
    const fields = imapErrorFields({ error });
    if (fields.authenticationFailed === true) {
      return { ok: false, detail: `the IMAP server ${where} refused the login of ${account.username}`, hint: 'Check platforms.email.username and password (many providers want an app password).' };
    }
    if (fields.mailboxMissing === true) return { ok: false, detail: `IMAP login works, but the folder "${config.folder}" does not exist`, hint: 'Create it or fix platforms.email.folder.' };
    const detail = signal.aborted || networkish(error) ? describeNetworkError({ error, signal, what: `IMAP ${where}` }) : `IMAP ${where}: ${describeImapError({ error })}`;
    return { ok: false, detail, hint: `Check platforms.email.imap_host, imap_port and imap_tls (${config.imap_tls ? 'implicit TLS, usually port 993' : 'plain'}).` };
  }
}

/** Whether an error came from the network rather than from the IMAP conversation. */
function networkish(error: unknown): boolean {
  const code = imapErrorFields({ error }).code;
  return code !== undefined && /^E[A-Z]+$/.test(code) && code !== 'ETHROTTLE';
}

/** SMTP: connect, (STARTTLS,) log in, quit (nodemailer's verify). */
async function checkSmtp(params: { config: EmailConfig; account: EmailAccount; signal: AbortSignal }): Promise<CredentialCheckResult | undefined> {
  const { config, account, signal } = params;
  const where = `${account.smtpHost}:${config.smtp_port}`;
  const transport = await createSmtpTransport({ config, account });
  try {
    await abortable({ work: transport.verify(), signal, onAbort: () => transport.close() });
    return undefined;
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? String((error).code) : undefined;
    if (code === 'EAUTH') return { ok: false, detail: `the SMTP server ${where} refused the login`, hint: 'Check platforms.email.smtp_username/smtp_password (or username/password).' };
    return { ok: false, detail: describeNetworkError({ error, signal, what: `SMTP ${where}` }), hint: `Check platforms.email.smtp_host, smtp_port and smtp_tls (${config.smtp_tls}).` };
  } finally {
    transport.close();
  }
}

/** `hermes doctor`: IMAP login (and the folder) and SMTP login, as the adapter connects. Never throws. */
export const emailCredentialCheck: CredentialCheck<EmailConfig> = async ({ config, signal }) => {
  const email = config;
  const account = emailAccount({ config: email });
  if ('missing' in account) return { ok: false, detail: `${account.missing} is not set`, hint: 'Set it in config.yaml (see the email section of config.example.yaml).' };
  try {
    const imap = await checkImap({ config: email, account, signal });
    if (imap !== undefined) return imap;
    const smtp = await checkSmtp({ config: email, account, signal });
    if (smtp !== undefined) return smtp;
    return { ok: true, detail: `${account.address}: IMAP ${account.imapHost} (folder ${email.folder}) and SMTP ${account.smtpHost} logins work` };
  } catch (error) {
    return { ok: false, detail: `the email check failed unexpectedly: ${errorMessage(error)}` };
  }
};
