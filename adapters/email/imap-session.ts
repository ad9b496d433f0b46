import type { ImapFlow } from 'imapflow';
import type { Logger } from 'pino';
import type { AdapterReport, AdapterStorage } from '../../src/core/adapter.js';
import type { Clock } from '../../src/core/clock.js';
import type { EmailAccount, EmailConfig } from './config.js';
import { FolderReader, type FetchedMail } from './folder-reader.js';
import { classifyImapError, createImapClient, describeImapError } from './imap-client.js';
import { whenAborted } from '../../src/util/when-aborted.js';
import { expectedFailureCause } from '../../src/util/net-failure.js';
import { errorMessage } from '../../src/util/error-text.js';

/**
 * With IDLE the folder is still re-read this often, in case a notification was missed; it also restarts IDLE
 * well before servers drop idle sessions (RFC 9051: 30 min) and before imapflow's 5 min socket watchdog.
 */
const idleRefreshMs = 4 * 60_000;
/** An IDLE that ended sooner than this without news is followed by a short pause (no busy loop on a flaky server). */
const minIdleMs = 200;
/** After a stop, a command still running gets this long before the socket is closed under it (a hung server). */
const stopGraceMs = 1000;

/** What one IMAP session needs. */
export interface ImapSessionParams {
  readonly config: EmailConfig;
  readonly account: EmailAccount;
  readonly storage: AdapterStorage;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  readonly report: (report: AdapterReport) => void;
  /** Largest mail source read in full. */
  readonly maxSourceBytes: number;
  /** Handles one new mail; the cursor advances only after it resolves. */
  readonly handle: (mail: FetchedMail) => Promise<void>;
  /** The folder is open and read: the client may be used for flags until `onDisconnected`. */
  readonly onConnected: (client: ImapFlow) => Promise<void>;
  readonly onDisconnected: () => void;
}

/**
 * One IMAP connection: log in, open the folder, catch up, then wait for new mail with IDLE (or poll every
 * `poll_interval` when the server has no IDLE) until `signal` aborts (resolves) or the connection drops
 * (rejects after reporting 'reconnecting', so the supervisor reconnects with backoff).
 */
export async function runImapSession(params: ImapSessionParams): Promise<void> {
  const { config, account, signal, logger } = params;
  const client = createImapClient({ config, account });
  let wake: () => void = () => undefined;
  let dirty = true;
  let closed = false;
  /** The server refused IDLE once: poll instead for the rest of this connection. */
  let idleFailed = false;
  const stopGuard = new AbortController();
  const onAbort = (): void => {
    wake();
    // A server that stops answering would otherwise hold the shutdown until imapflow's 5-minute socket timeout.
    void params.clock.sleep(stopGraceMs, stopGuard.signal).then(
      () => client.close(),
      () => undefined,
    );
  };
  client.on('error', (error: Error) => {
    const cause = expectedFailureCause({ error });
    logger.warn({ err: describeImapError({ error }), ...(cause === undefined ? {} : { cause }) }, cause === undefined ? 'IMAP connection error' : `IMAP connection error: ${cause}`);
  });
  client.on('close', () => {
    closed = true;
    wake();
  });
  client.on('exists', () => {
    dirty = true;
    wake();
  });
  signal.addEventListener('abort', onAbort, { once: true });
  let connected = false;
  const reader = new FolderReader({ client, folder: config.folder, storage: params.storage, clock: params.clock, logger, maxSourceBytes: params.maxSourceBytes, handle: params.handle });
  try {
    try {
      await Promise.race([client.connect(), whenAborted({ signal })]);
      if (signal.aborted) return;
      await reader.open();
    } catch (error) {
      if (signal.aborted) return;
      throw classifyImapError({ error, config, host: account.imapHost });
    }
    connected = true;
    await params.onConnected(client);
    params.report({ state: 'connected' });
    const idle = client.capabilities.has('IDLE');
    if (!idle) logger.info({ pollIntervalMs: config.poll_interval }, 'the IMAP server has no IDLE: polling the folder');
    while (!signal.aborted && !closed) {
      if (dirty) {
        dirty = false;
        await reader.readNew();
        continue;
      }
      const woken = new Promise<void>((resolve) => (wake = resolve));
      const idling = idle && !idleFailed;
      // Any other command (a \Seen flag after a reply) ends IDLE: the loop then wakes and starts it again.
      if (idling) {
        client.idle({ whenFree: true }).then(
          (result) => {
            if (result === false) idleFailed = true;
            wake();
          },
          () => wake(),
        );
      }
      const guard = new AbortController();
      const timer = params.clock.sleep(idling ? idleRefreshMs : config.poll_interval, guard.signal).then(
        () => void (dirty = true),
        () => undefined,
      );
      const idleStarted = params.clock.now();
      await Promise.race([woken, timer]);
      guard.abort();
      if (idling && !dirty && !closed && params.clock.now() - idleStarted < minIdleMs) await params.clock.sleep(minIdleMs, signal).catch(() => undefined);
    }
    if (signal.aborted) return;
    throw new Error(`the IMAP server ${account.imapHost}:${config.imap_port} closed the connection`);
  } catch (error) {
    if (signal.aborted) return;
    const reason = errorMessage(error);
    if (connected) params.report({ state: 'reconnecting', reason: `IMAP: ${reason}; reconnecting` });
    throw error;
  } finally {
    signal.removeEventListener('abort', onAbort);
    params.onDisconnected();
    if (!closed) await logoutBounded({ client, clock: params.clock });
    stopGuard.abort();
  }
}

/** Logs out, giving up (closing the socket) after 2 s. */
async function logoutBounded(params: { client: ImapFlow; clock: Clock }): Promise<void> {
  const guard = new AbortController();
  await Promise.race([params.client.logout().catch(() => undefined), params.clock.sleep(2000, guard.signal).catch(() => undefined)]);
  guard.abort();
  params.client.close();
}
