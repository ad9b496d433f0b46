import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Logger } from 'pino';
import { fingerprintMatches, secretSetFingerprint } from '../../secrets/fingerprint.js';
import { storeDiskErrorOf } from '../../store/errors.js';
import type { ScrubbedPart, Store } from '../../store/types.js';

/** Store cursor holding the fingerprint of the secret set the stored history was last scrubbed with. */
export const SCRUBBED_CURSOR = 'history-scrub.fingerprint';

/** Rows rewritten per transaction; the event loop runs between batches. */
const DEFAULT_BATCH = 50;

const PARTS: readonly ScrubbedPart[] = ['messages', 'sessions', 'inbox', 'jobs', 'job_runs'];

/** What a history scrub did. */
export type HistoryScrubResult =
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'scrubbed'; readonly changed: number }
  | { readonly kind: 'aborted' }
  | { readonly kind: 'failed'; readonly error: unknown };

/**
 * Scrubs history stored before a secret was known (an upgraded profile, a secret added to .env and reloaded): when
 * the profile's secret set differs from the one last applied (a salted fingerprint in the store, never the secrets),
 * every message (content, tool-call arguments, FTS), session title, answered inbox row, job (name, prompt, script)
 * and job run error is rewritten in bounded
 * batches, yielding between them. The fingerprint is recorded only once every row was looked at, so a run cut short
 * (stop, full disk) starts over next time. One log line with the count. Never rejects.
 */
export async function scrubStoredHistory(params: {
  store: Store;
  secrets: readonly string[];
  scrub: (text: string) => string;
  logger: Logger;
  signal: AbortSignal;
  batchSize?: number;
}): Promise<HistoryScrubResult> {
  const { store, secrets, scrub, logger, signal } = params;
  try {
    const applied = store.getCursor({ name: SCRUBBED_CURSOR });
    if (applied !== undefined && (await fingerprintMatches({ secrets, fingerprint: applied }))) return { kind: 'unchanged' };
    const fingerprint = await secretSetFingerprint({ secrets });
    let changed = 0;
    for (const part of PARTS) {
      let after = 0;
      for (;;) {
        if (signal.aborted) return { kind: 'aborted' };
        const batch = store.scrubStoredBatch({ part, afterRowId: after, limit: params.batchSize ?? DEFAULT_BATCH, scrub });
        changed += batch.changed;
        if (batch.lastRowId === null) break;
        after = batch.lastRowId;
        await yieldToLoop(undefined, { signal }).catch(() => undefined);
      }
    }
    if (signal.aborted) return { kind: 'aborted' };
    if (changed > 0) store.compactAfterScrub();
    store.setCursor({ name: SCRUBBED_CURSOR, value: fingerprint });
    logger.info({ changed }, changed > 0 ? `stored history: scrubbed secrets from ${changed} rows written before they were known` : 'stored history: checked for newly known secrets, none found');
    return { kind: 'scrubbed', changed };
  } catch (error) {
    const disk = storeDiskErrorOf({ error });
    logger.warn(
      { err: error },
      disk !== undefined
        ? 'stored history: scrubbing secrets stopped because the disk refuses writes; it runs again at the next start or reload'
        : 'stored history: scrubbing secrets failed; it runs again at the next start or reload',
    );
    return { kind: 'failed', error };
  }
}
