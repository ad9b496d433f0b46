import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import type { CredentialState, Store } from './types.js';

/** A credential_state row as SQLite returns it. */
interface CredentialRow {
  fingerprint: string;
  calls: number;
  cooldown_until: number | null;
  cooldown_reason: string | null;
}

/** The credential-pool part of the Store. */
export type CredentialQueries = Pick<Store, 'credentialStates' | 'recordCredentialUse' | 'setCredentialCooldown'>;

/** Prepares the credential-pool statements once and returns the methods that use them. */
export function createCredentialQueries(params: { db: Database.Database; clock: Clock }): CredentialQueries {
  const { db, clock } = params;
  const one = db.prepare<[string], CredentialRow>(
    'SELECT fingerprint, calls, cooldown_until, cooldown_reason FROM credential_state WHERE fingerprint = ?',
  );
  const use = db.prepare<{ fingerprint: string; now: number }>(
    `INSERT INTO credential_state (fingerprint, calls, updated_at) VALUES (@fingerprint, 1, @now)
     ON CONFLICT (fingerprint) DO UPDATE SET calls = calls + 1, updated_at = @now`,
  );
  const cool = db.prepare<{ fingerprint: string; until: number | null; reason: string | null; now: number }>(
    `INSERT INTO credential_state (fingerprint, calls, cooldown_until, cooldown_reason, updated_at)
     VALUES (@fingerprint, 0, @until, @reason, @now)
     ON CONFLICT (fingerprint) DO UPDATE SET cooldown_until = @until, cooldown_reason = @reason, updated_at = @now`,
  );
  return {
    credentialStates: ({ fingerprints }) => {
      const states: CredentialState[] = [];
      for (const fingerprint of fingerprints) {
        const row = one.get(fingerprint);
        if (row) {
          states.push({ fingerprint: row.fingerprint, calls: row.calls, cooldownUntil: row.cooldown_until, cooldownReason: row.cooldown_reason });
        }
      }
      return states;
    },
    recordCredentialUse: ({ fingerprint }) => {
      use.run({ fingerprint, now: clock.now() });
    },
    setCredentialCooldown: ({ fingerprint, until, reason }) => {
      cool.run({ fingerprint, until, reason, now: clock.now() });
    },
  };
}
