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

/** What a session's client events and its wait loop share. */
interface SessionState {
  /** Ends the current wait (each wait sets its own). */
  wake: () => void;
  /** The folder may have new mail: it is read again before the next wait. */
  dirty: boolean;
  /** The connection is closed. */
  closed: boolean;
  /** The server refused IDLE once: poll instead for the rest of this connection. */
  idleFailed: boolean;
}

/**
 * One IMAP connection: log in, open the folder, catch up, then wait for new mail with IDLE (or poll every
 * `poll_interval` when the server has no IDLE) until `signal` aborts (resolves) or the connection drops
 * (rejects after reporting 'reconnecting', so the supervisor reconnects with backoff).
 */
export async function runImapSession(params: ImapSessionParams): Promise<void> {
  const { config, account, signal, logger } = params;
  const client = createImapClient({ config, account });
  const state: SessionState = { wake: () => undefined, dirty: true, closed: false, idleFailed: false };
  const stopGuard = new AbortController();
  const onAbort = (): void => {
    state.wake();
    // A server that stops answering would otherwise hold the shutdown until imapflow's 5-minute socket timeout.
    void params.clock.sleep(stopGraceMs, stopGuard.signal).then(
      () => client.close(),
      () => undefined,
    );
  };
  watchClient({ client, state, logger });
  signal.addEventListener('abort', onAbort, { once: true });
  let connected = false;
  const reader = new FolderReader({ client, folder: config.folder, storage: params.storage, clock: params.clock, logger, maxSourceBytes: params.maxSourceBytes, handle: params.handle });
  try {
    if (!(await openFolder({ session: params, client, reader }))) return;
    connected = true;
    await params.onConnected(client);
    params.report({ state: 'connected' });
    await followFolder({ session: params, client, reader, state });
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
    if (!state.closed) await logoutBounded({ client, clock: params.clock });
    stopGuard.abort();
  }
}

/** Logs the client's errors, and wakes the wait when the connection closes or the folder has new mail. */
function watchClient(params: { client: ImapFlow; state: SessionState; logger: Logger }): void {
  const { client, state, logger } = params;
  client.on('error', (error: Error) => {
    const cause = expectedFailureCause({ error });
    logger.warn({ err: describeImapError({ error }), ...(cause === undefined ? {} : { cause }) }, cause === undefined ? 'IMAP connection error' : `IMAP connection error: ${cause}`);
  });
  client.on('close', () => {
    state.closed = true;
    state.wake();
  });
  client.on('exists', () => {
    state.dirty = true;
    state.wake();
  });
}

/** Logs in and opens the folder; false when the session was stopped first. A failure throws the classified error. */
async function openFolder(params: { session: ImapSessionParams; client: ImapFlow; reader: FolderReader }): Promise<boolean> {
  const { config, account, signal } = params.session;
  try {
    await Promise.race([params.client.connect(), whenAborted({ signal })]);
    if (signal.aborted) return false;
    await params.reader.open();
  } catch (error) {
    if (signal.aborted) return false;
    throw classifyImapError({ error, config, host: account.imapHost });
  }
  return true;
}

/** Reads the folder whenever it may have new mail, and waits in between, until the session is stopped or the connection closes. */
async function followFolder(params: { session: ImapSessionParams; client: ImapFlow; reader: FolderReader; state: SessionState }): Promise<void> {
  const { session, client, reader, state } = params;
  const idle = client.capabilities.has('IDLE');
  if (!idle) session.logger.info({ pollIntervalMs: session.config.poll_interval }, 'the IMAP server has no IDLE: polling the folder');
  while (!session.signal.aborted && !state.closed) {
    if (state.dirty) {
      state.dirty = false;
      await reader.readNew();
      continue;
    }
    await waitForMail({ session, client, state, idling: idle && !state.idleFailed });
  }
}

/**
 * Waits until something happens: new mail, a closed connection, a stop, or the refresh time (with IDLE) or the poll
 * interval (without) passing, after which the folder is read again.
 */
async function waitForMail(params: { session: ImapSessionParams; client: ImapFlow; state: SessionState; idling: boolean }): Promise<void> {
  const { session, client, state, idling } = params;
  const { clock } = session;
  const woken = new Promise<void>((resolve) => (state.wake = resolve));
  // Any other command (a \Seen flag after a reply) ends IDLE: the loop then wakes and starts it again.
  if (idling) {
    client.idle({ whenFree: true }).then(
      (result) => {
        if (result === false) state.idleFailed = true;
        state.wake();
      },
      () => state.wake(),
    );
  }
  const guard = new AbortController();
  const timer = clock.sleep(idling ? idleRefreshMs : session.config.poll_interval, guard.signal).then(
    () => void (state.dirty = true),
    () => undefined,
  );
  const idleStarted = clock.now();
  await Promise.race([woken, timer]);
  guard.abort();
  // An IDLE that ended at once without news (a flaky server) is followed by a short pause, not a busy loop.
  if (idling && !state.dirty && !state.closed && clock.now() - idleStarted < minIdleMs) await clock.sleep(minIdleMs, session.signal).catch(() => undefined);
}

/** Logs out, giving up (closing the socket) after 2 s. */
async function logoutBounded(params: { client: ImapFlow; clock: Clock }): Promise<void> {
  const guard = new AbortController();
  await Promise.race([params.client.logout().catch(() => undefined), params.clock.sleep(2000, guard.signal).catch(() => undefined)]);
  guard.abort();
  params.client.close();
}
