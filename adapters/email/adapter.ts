import path from 'node:path';
import type { ImapFlow } from 'imapflow';
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import type { Logger } from 'pino';
import { isLoopbackHost } from '../../src/util/loopback.js';
import type { AdapterCapabilities, AdapterStartParams, AdapterStorage, EditRequest, OutboundMessage, PlatformAdapter } from '../../src/core/adapter.js';
import { AdapterFatalError } from '../../src/core/errors.js';
import { BoundedSet } from '../../src/util/bounded-set.js';
import type { Clock } from '../../src/core/clock.js';
import { AfterReply } from './after-reply.js';
import { emailAccount, type EmailAccount, type EmailConfig } from './config.js';
import { runImapSession } from './imap-session.js';
import { composeMail, newMessageId, planOutbound } from './outbound.js';
import { receiveMail } from './receive.js';
import { createSmtpTransport, describeSmtpError } from './smtp.js';
import { ThreadIndex } from './threads.js';

/** What the adapter keeps across connections once `start` has given it storage. */
interface EmailState {
  readonly index: ThreadIndex;
  readonly afterReply: AfterReply;
}

/**
 * Email: IMAP in (IDLE, or polling without it) with a persisted per-folder cursor, SMTP out (nodemailer).
 * One session per mail thread; replies are threaded, plain text plus HTML, files as MIME attachments; the
 * answered mail is flagged \Seen (or moved) only after SMTP accepted the reply. Machine mail is never answered.
 */
export class EmailAdapter implements PlatformAdapter {
  readonly name = 'email';
  readonly capabilities: AdapterCapabilities = {
    edit: false,
    threads: true,
    typing: false,
    reactions: false,
    media: true,
    maxMessageLength: 20_000,
    markup: 'markdown',
  };
  private readonly config: EmailConfig;
  private readonly account: EmailAccount;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly cacheDir: string;
  /** Made at the first send (nodemailer loads then). */
  private transport: Promise<Transporter<SMTPTransport.SentMessageInfo>> | undefined;
  private readonly seen = new BoundedSet<string>({ max: 5000 });
  private state: EmailState | undefined;
  private imap: ImapFlow | undefined;
  private connected: (() => void) | undefined;
  private warned = false;
  private readonly firstConnect: Promise<void>;

  constructor(params: { config: EmailConfig; cacheDir: string; clock: Clock; logger: Logger }) {
    const account = emailAccount({ config: params.config });
    if ('missing' in account) throw new AdapterFatalError({ message: `${account.missing} is not set`, hint: `Set ${account.missing} in config.yaml (see config.example.yaml).` });
    this.config = params.config;
    this.account = account;
    this.clock = params.clock;
    this.logger = params.logger.child({ adapter: 'email' });
    this.cacheDir = path.join(params.cacheDir, 'email');
    this.firstConnect = new Promise<void>((resolve) => (this.connected = resolve));
  }

  /** Resolves once the folder was first opened and is being watched (tests wait for it before sending mail). */
  ready(): Promise<void> {
    return this.firstConnect;
  }

  /** Watches the folder (IDLE or polling) and hands each new mail a person wrote to `emit`, until `signal` aborts. */
  async start(params: AdapterStartParams): Promise<void> {
    // Built from each run's storage (a restarted gateway hands a new one); what matters is persisted in it.
    const state = this.buildState({ storage: params.storage });
    this.state = state;
    this.warnPlaintext();
    await runImapSession({
      config: this.config,
      account: this.account,
      storage: params.storage,
      clock: this.clock,
      logger: this.logger,
      signal: params.signal,
      report: params.report,
      // Up to three attachments at the size limit, base64-encoded, plus the text.
      maxSourceBytes: Math.ceil(this.config.max_attachment_size * 1.4) * 3 + 1024 * 1024,
      handle: async (fetched) => {
        const event = await receiveMail({
          fetched,
          deps: {
            ownAddress: this.account.address,
            ...(this.config.verify_sender === 'auth-results'
              ? { verifySender: this.config.trusted_auth_server === undefined ? {} : { trustedServer: this.config.trusted_auth_server } }
              : {}),
            index: state.index,
            seen: this.seen,
            cacheDir: this.cacheDir,
            maxAttachmentBytes: this.config.max_attachment_size,
            mayTalk: params.mayTalk,
            now: () => this.clock.now(),
            logger: this.logger,
          },
        });
        if (event === undefined) return;
        await params.emit(event);
        this.seen.add(event.messageId);
      },
      onConnected: async (client) => {
        this.imap = client;
        await state.afterReply.flush({ client });
        this.connected?.();
      },
      onDisconnected: () => {
        this.imap = undefined;
      },
    });
  }

  /** Sends one threaded mail to the chat's address by SMTP; the mail it answers is flagged (or moved) only after. */
  async send(message: OutboundMessage): Promise<{ messageId: string }> {
    const state = this.state;
    if (state === undefined) throw new Error('the email adapter has not started yet; the reply is sent once it has');
    const plan = planOutbound({
      chat: message.chat,
      ...(message.replyToId !== undefined ? { replyToId: message.replyToId } : {}),
      index: state.index,
      newSubject: `Message from ${this.config.display_name ?? 'Hermes'}`,
    });
    const messageId = newMessageId({ address: this.account.address });
    const mail = composeMail({
      plan,
      messageId,
      from: { address: this.account.address, ...(this.config.display_name !== undefined ? { name: this.config.display_name } : {}) },
      text: message.text,
      attachments: message.attachments ?? [],
    });
    let info: SMTPTransport.SentMessageInfo;
    try {
      this.transport ??= createSmtpTransport({ config: this.config, account: this.account });
      const transport = await this.transport;
      info = await transport.sendMail(mail);
    } catch (error) {
      throw describeSmtpError({ error, config: this.config, host: this.account.smtpHost });
    }
    if (info.rejected.length > 0) throw new Error(`the SMTP server refused the recipient ${plan.to}: ${info.response}`);
    state.index.remember({ mail: { id: messageId, root: plan.root ?? messageId, subject: plan.subject, references: [...plan.references], peer: plan.to.toLowerCase() } });
    // Only now, with the reply accepted, is the mail it answers marked as handled.
    const place = message.replyToId !== undefined ? plan.answers?.source : undefined;
    if (place !== undefined) await state.afterReply.apply({ client: this.imap, place });
    return { messageId };
  }

  /** Mail cannot be edited once sent: always refuses (capabilities.edit is false). */
  edit(_request: EditRequest): Promise<void> {
    return Promise.reject(new Error('email cannot edit a sent mail (capabilities.edit is false); send a new message instead'));
  }

  /** The thread index and after-reply queue over the adapter's storage. */
  private buildState(params: { storage: AdapterStorage }): EmailState {
    return {
      index: new ThreadIndex({ storage: params.storage, onCorrupt: (error) => this.logger.warn({ err: error }, 'stored email thread index unreadable; starting a new one') }),
      afterReply: new AfterReply({ storage: params.storage, mode: this.config.after_reply, ...(this.config.move_to !== undefined ? { moveTo: this.config.move_to } : {}), logger: this.logger }),
    };
  }

  /** A warning for credentials crossing a network without TLS (fine on loopback, for local servers). */
  private warnPlaintext(): void {
    if (this.warned) return;
    this.warned = true;
    if (!this.config.imap_tls && !isLoopbackHost({ host: this.account.imapHost })) {
      this.logger.warn({ host: this.account.imapHost }, 'platforms.email.imap_tls is false: the IMAP password crosses the network unencrypted (use it for local servers only)');
    }
    if (this.config.smtp_tls === 'none' && !isLoopbackHost({ host: this.account.smtpHost })) {
      this.logger.warn({ host: this.account.smtpHost }, "platforms.email.smtp_tls is 'none': the SMTP password crosses the network unencrypted (use it for local servers only)");
    }
  }
}
