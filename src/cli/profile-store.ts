import { existsSync } from 'node:fs';
import { UserFacingError } from '../core/errors.js';
import type { Profile } from '../home/profile.js';
import { openStore } from '../store/sqlite-store.js';
import type { Store } from '../store/types.js';
import type { Clock } from '../core/clock.js';

/**
 * Runs `use` with the profile's store open (closing it after). A profile without a state.db yet is a clear
 * error: `missing` says what there is nothing of and `hint` what to do. Safe while a gateway runs (WAL).
 */
export function withProfileStore<T>(params: { profile: Profile; clock: Clock; missing: string; hint: string; use: (store: Store) => T }): T {
  const { profile } = params;
  if (!existsSync(profile.dbPath)) {
    throw new UserFacingError({ message: `profile "${profile.name}" has no ${params.missing} yet (${profile.dbPath} does not exist)`, hint: params.hint });
  }
  const store = openStore({ path: profile.dbPath, clock: params.clock });
  try {
    return params.use(store);
  } finally {
    store.close();
  }
}
