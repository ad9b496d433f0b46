import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';

/** One mail the sink accepted. */
export interface SunkMail {
  /** The envelope sender (MAIL FROM). */
  readonly from: string;
  /** The envelope recipients (RCPT TO). */
  readonly to: readonly string[];
  /** The message exactly as it arrived. */
  readonly raw: Buffer;
  /** The message parsed by mailparser. */
  readonly parsed: ParsedMail;
}

/** Largest mail the sink takes (a runaway test stays bounded). */
const maxMailBytes = 25 * 1024 * 1024;

/**
 * An SMTP server on 127.0.0.1 (plain, AUTH optional and allowed without TLS) that keeps every mail it accepts.
 * `failing` makes it refuse mails with a temporary error, as a mail server that is down for a moment would.
 */
export class SmtpSink {
  /** Mails accepted so far, oldest first. */
  readonly mails: SunkMail[] = [];
  /** While set, DATA is answered with this SMTP error code (e.g. 451) and nothing is kept. */
  failWith: number | undefined;
  /** Refused deliveries so far. */
  refused = 0;
  /** Credentials the sink accepts; any when unset. */
  private readonly credentials: { username: string; password: string } | undefined;
  private readonly server: SMTPServer;
  private listeningPort = 0;

  constructor(params: { credentials?: { username: string; password: string } } = {}) {
    this.credentials = params.credentials;
    this.server = new SMTPServer({
      secure: false,
      disabledCommands: ['STARTTLS'],
      disableReverseLookup: true,
      allowInsecureAuth: true,
      authOptional: true,
      size: maxMailBytes,
      logger: false,
      onAuth: (auth, _session, callback) => {
        const ok = this.credentials === undefined || (auth.username === this.credentials.username && auth.password === this.credentials.password);
        if (ok) callback(null, { user: auth.username ?? 'anonymous' });
        else callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
      },
      onData: (stream, session, callback) => this.take({ stream, session, callback }),
    });
  }

  /** The port it listens on (after `start`). */
  get port(): number {
    return this.listeningPort;
  }

  /** Listens on a free loopback port. */
  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => {
        this.server.off('error', reject);
        resolve();
      });
    });
    this.listeningPort = (this.server.server.address() as AddressInfo).port;
  }

  /** Mails sent to `address` (case-insensitive), oldest first. */
  mailsTo(params: { address: string }): SunkMail[] {
    const wanted = params.address.toLowerCase();
    return this.mails.filter((mail) => mail.to.some((to) => to.toLowerCase() === wanted));
  }

  /** Resolves once at least `count` mails were accepted, or rejects after `timeoutMs`. */
  async waitFor(params: { count: number; timeoutMs?: number }): Promise<void> {
    const deadline = Date.now() + (params.timeoutMs ?? 10_000);
    while (this.mails.length < params.count) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${params.count} mails at the SMTP sink (got ${this.mails.length})`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** Stops listening. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private take(params: { stream: SMTPServerDataStream; session: SMTPServerSession; callback: (error?: Error | null) => void }): void {
    const { stream, session, callback } = params;
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      if (this.failWith !== undefined) {
        this.refused += 1;
        callback(Object.assign(new Error('Mail system busy, try again later'), { responseCode: this.failWith }));
        return;
      }
      if (stream.sizeExceeded) {
        callback(Object.assign(new Error('Message too large for the test sink'), { responseCode: 552 }));
        return;
      }
      const raw = Buffer.concat(chunks);
      simpleParser(raw).then(
        (parsed) => {
          const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
          this.mails.push({ from, to: session.envelope.rcptTo.map((r) => r.address), raw, parsed });
          callback();
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    });
  }
}
