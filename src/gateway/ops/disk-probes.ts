import type { Store } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';

/** Cursor the store probe writes (and shrinks again); no adapter uses the `hermes:` prefix. */
export const storeProbeCursor = 'hermes:disk-probe';

/** Bytes the store probe writes: a few pages, about what a message with its history entries takes. */
const storeProbeBytes = 16 * 1024;

/**
 * Proves the store can write again: writes a value of a few pages and shrinks it back (both committed), so a
 * disk with room for only a row in place does not count as recovered. Throws StoreDiskError while it cannot.
 */
export function probeStore(params: { store: Store; clock: Clock }): boolean {
  const { store, clock } = params;
  store.setCursor({ name: storeProbeCursor, value: 'x'.repeat(storeProbeBytes) });
  store.setCursor({ name: storeProbeCursor, value: String(clock.now()) });
  return true;
}
