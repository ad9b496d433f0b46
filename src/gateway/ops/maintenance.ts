import type { Logger } from 'pino';
import type { Store } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import { pruneCache } from './cache-prune.js';

/** How long answered messages stay in the inbox journal (and downloads in the cache): far longer than any platform redelivers. */
export const inboxRetentionMs = 7 * 24 * 3600_000;

/** How often the journal is pruned. */
export const maintenanceIntervalMs = 3600_000;

/**
 * Keeps the journal from growing for ever: prunes answered inbox rows past the retention now and then
 * every interval, until `signal` aborts. Never rejects.
 */
export async function runMaintenance(params: {
  store: Store;
  clock: Clock;
  logger: Logger;
  signal: AbortSignal;
  /** The profile's media cache, pruned with the same retention. */
  cacheDir?: string;
  intervalMs?: number;
  retentionMs?: number;
}): Promise<void> {
  const { store, clock, logger, signal } = params;
  const retention = params.retentionMs ?? inboxRetentionMs;
  while (!signal.aborted) {
    try {
      const removed = store.pruneInbound({ before: clock.now() - retention });
      if (removed > 0) logger.info({ removed }, 'pruned answered messages from the inbox journal');
      if (params.cacheDir !== undefined) {
        const files = await pruneCache({ dir: params.cacheDir, before: clock.now() - retention });
        if (files > 0) logger.info({ files }, 'pruned old downloads from the media cache');
      }
    } catch (error) {
      logger.warn({ err: error }, 'pruning failed; will try again');
    }
    try {
      await clock.sleep(params.intervalMs ?? maintenanceIntervalMs, signal);
    } catch {
      return;
    }
  }
}
