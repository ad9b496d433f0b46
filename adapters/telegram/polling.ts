import type { Api } from 'grammy';
import type { Update } from 'grammy/types';
import type { Logger } from 'pino';
import type { AdapterReport } from '../../src/core/adapter.js';
import { backoffDelay } from '../../src/util/backoff.js';
import type { Clock } from '../../src/core/clock.js';
import { classifyTelegramError } from './errors.js';
import { grammySignal } from './signal.js';
import { failureLog } from '../../src/util/net-failure.js';

/** Updates the adapter asks Telegram for. */
export const allowedUpdates = ['message', 'edited_message', 'callback_query'] as const;

/** Seconds Telegram holds a getUpdates request open when there is nothing new. */
const longPollSeconds = 25;

/**
 * Long-polls getUpdates until `signal` aborts. Each batch is handed to `handleBatch` and awaited (journaled)
 * before the next poll's offset acknowledges it, so a crash never loses one. A 409 (another poller on this
 * token) and network failures are retried with backoff and reported; a rejected token ends the loop.
 */
export async function pollUpdates(params: {
  api: Api;
  signal: AbortSignal;
  clock: Clock;
  logger: Logger;
  report: (report: AdapterReport) => void;
  /** Takes one poll's updates; resolves once all of them are journaled (or deliberately skipped). */
  handleBatch: (updates: readonly Update[]) => Promise<void>;
}): Promise<void> {
  const { api, signal, clock, logger, report } = params;
  let offset = 0;
  let failures = 0;
  let connected = false;
  while (!signal.aborted) {
    let updates: Update[];
    try {
      // After a failure (and at start) one quick poll proves the connection, so health shows "connected" at once.
      const timeout = failures > 0 || !connected ? 0 : longPollSeconds;
      updates = await api.getUpdates({ offset, timeout, allowed_updates: [...allowedUpdates] }, grammySignal(signal));
    } catch (error) {
      if (signal.aborted) break;
      const failure = classifyTelegramError({ error, method: 'getUpdates' });
      if (failure.kind === 'unauthorized') throw failure.error;
      const reason =
        failure.kind === 'conflict'
          ? 'another program is polling this bot token (409 Conflict); stop it or use a different bot'
          : `getUpdates failed: ${failureLog({ error, msg: '', logger }).text}`;
      const delay = failure.kind === 'rate-limited' ? failure.error.retryAfterMs : backoffDelay({ attempt: failures, baseMs: 1000, maxMs: 60_000 });
      failures += 1;
      report({ state: 'reconnecting', reason });
      logger.warn({ reason, retryInMs: delay, attempt: failures }, 'Telegram polling failed; retrying');
      try {
        await clock.sleep(delay, signal);
      } catch {
        break;
      }
      continue;
    }
    if (failures > 0 || !connected) report({ state: 'connected' });
    connected = true;
    failures = 0;
    const last = updates.at(-1);
    if (last === undefined || signal.aborted) continue;
    await params.handleBatch(updates);
    offset = last.update_id + 1;
  }
  await confirmOffset({ api, offset, logger, clock });
}

/**
 * Tells Telegram which updates were taken before stopping, so the next start does not fetch (and download)
 * the last batch again. Best effort: the inbox journal dedupes it anyway.
 */
async function confirmOffset(params: { api: Api; offset: number; logger: Logger; clock: Clock }): Promise<void> {
  if (params.offset === 0) return;
  const controller = new AbortController();
  const guard = new AbortController();
  void params.clock.sleep(2000, guard.signal).then(
    () => controller.abort(),
    () => undefined,
  );
  try {
    await params.api.getUpdates({ offset: params.offset, timeout: 0, limit: 1, allowed_updates: [...allowedUpdates] }, grammySignal(controller.signal));
  } catch (error) {
    params.logger.debug({ err: error }, 'could not confirm the last Telegram updates on stop');
  } finally {
    guard.abort();
  }
}
