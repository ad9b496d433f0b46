import type { CredentialState, Store } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import type { FailureReason } from '../errors.js';
import { keyFingerprint, maskKey } from './keys.js';

/** How the pool picks among available keys. */
export type KeyStrategy = 'least_used' | 'fill_first' | 'round_robin' | 'random';

/** Where the pool keeps call counts and cooldowns (the store; in memory when absent). */
export type CredentialStateStore = Pick<Store, 'credentialStates' | 'recordCredentialUse' | 'setCredentialCooldown'>;

/** How long a key rests after a rate limit that outlived its retries. */
export const RATE_LIMIT_COOLDOWN_MS = 60 * 60 * 1_000;
/** How long a key rests after an out-of-credit answer or an auth failure. */
export const EXHAUSTED_COOLDOWN_MS = 24 * 60 * 60 * 1_000;

/** One key of a pool. */
export interface PoolKey {
  /** The secret itself (only ever sent to the provider). */
  readonly key: string;
  /** Its SHA-256 fingerprint (store, logs). */
  readonly fingerprint: string;
  /** Its masked form (`sk-…3f9a`) for status lines. */
  readonly masked: string;
}

/**
 * When every key rests, the one whose rest ends first is still tried this often (one call): a topped-up account or a
 * provider's passing auth glitch must not leave a one-key profile deaf for a day. A success ends its rest.
 */
export const PROBE_SPACING_MS = 60 * 1_000;

/** What `pick` found: a key (`probe`: a resting one tried anyway), or none because every key not yet tried is cooling down. */
export type PoolPick =
  | { kind: 'key'; key: PoolKey; probe?: boolean }
  | { kind: 'exhausted'; nextAt: number | undefined; reason: string | undefined };

/** One key's state for doctor and /status. */
export interface KeyStatus {
  /** The masked key. */
  readonly masked: string;
  /** Model calls made with it. */
  readonly calls: number;
  /** Epoch ms until which it rests, when it does. */
  readonly coolingUntil?: number;
  /** Why it rests (a failure reason). */
  readonly reason?: string;
}

/**
 * A provider's API keys: picks one for each call by strategy, skipping keys that cool down after a rate-limit
 * exhaustion (1 h) or an out-of-credit / auth failure (24 h). Counts and cooldowns persist in the store.
 */
export class CredentialPool {
  /** The keys in configured order. */
  readonly keys: readonly PoolKey[];
  private readonly strategy: KeyStrategy;
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly state: CredentialStateStore;
  private cursor = 0;
  /** When each resting key was last tried anyway (fingerprint → epoch ms); the store's cooldown gives the last failure. */
  private readonly probedAt = new Map<string, number>();

  constructor(params: {
    keys: readonly string[];
    strategy: KeyStrategy;
    clock: Clock;
    store?: CredentialStateStore | undefined;
    random?: () => number;
  }) {
    const unique = [...new Set(params.keys)];
    this.keys = unique.map((key) => ({ key, fingerprint: keyFingerprint({ key }), masked: maskKey({ key }) }));
    this.strategy = params.strategy;
    this.clock = params.clock;
    this.random = params.random ?? Math.random;
    this.state = params.store ?? memoryCredentialState();
  }

  /** The next key to use, leaving out those in `tried` (fingerprints) and those cooling down. */
  pick(params: { tried?: ReadonlySet<string> } = {}): PoolPick {
    const now = this.clock.now();
    const states = this.states();
    const untried = this.keys.filter((k) => !params.tried?.has(k.fingerprint));
    const ready = untried.filter((k) => (states.get(k.fingerprint)?.cooldownUntil ?? 0) <= now);
    if (ready.length === 0) {
      const resting = untried
        .map((k) => states.get(k.fingerprint))
        .filter((s): s is CredentialState => s !== undefined && (s.cooldownUntil ?? 0) > now)
        .sort((a, b) => (a.cooldownUntil ?? 0) - (b.cooldownUntil ?? 0));
      const first = resting[0];
      const probe = params.tried === undefined || params.tried.size === 0 ? this.keys.find((k) => k.fingerprint === first?.fingerprint) : undefined;
      if (probe !== undefined && first !== undefined && now - this.lastTriedAt({ state: first }) >= PROBE_SPACING_MS) {
        this.probedAt.set(probe.fingerprint, now);
        return { kind: 'key', key: probe, probe: true };
      }
      return { kind: 'exhausted', nextAt: first?.cooldownUntil ?? undefined, reason: first?.cooldownReason ?? undefined };
    }
    return { kind: 'key', key: this.choose({ ready, states }) };
  }

  /**
   * When a resting key was last tried: the later of this process's last probe and the failure that set its rest (its
   * end minus the rest's length, read from the store). A failed probe rests the key anew, so the spacing of probes
   * survives restarts: a gateway restarting every few seconds does not probe on each start.
   */
  private lastTriedAt(params: { state: CredentialState }): number {
    const { state } = params;
    const failedAt = (state.cooldownUntil ?? 0) - cooldownMsFor({ reason: state.cooldownReason ?? undefined });
    return Math.max(this.probedAt.get(state.fingerprint) ?? -Infinity, failedAt);
  }

  /** Counts one model call made with a key. */
  recordUse(params: { key: PoolKey }): void {
    this.state.recordCredentialUse({ fingerprint: params.key.fingerprint });
  }

  /** Rests a key after a failure that made it unusable; returns until when. */
  coolDown(params: { key: PoolKey; reason: FailureReason }): number {
    const ms = cooldownMsFor({ reason: params.reason });
    const until = this.clock.now() + ms;
    this.state.setCredentialCooldown({ fingerprint: params.key.fingerprint, until, reason: params.reason });
    // The failure itself counts as the last try: the next probe comes PROBE_SPACING_MS later.
    this.probedAt.set(params.key.fingerprint, this.clock.now());
    return until;
  }

  /** Ends a key's rest (a probe of it was answered). */
  clearCooldown(params: { key: PoolKey }): void {
    this.state.setCredentialCooldown({ fingerprint: params.key.fingerprint, until: null, reason: null });
    this.probedAt.delete(params.key.fingerprint);
  }

  /** Each key's state, masked, in configured order. */
  status(): KeyStatus[] {
    const now = this.clock.now();
    const states = this.states();
    return this.keys.map((k) => {
      const s = states.get(k.fingerprint);
      const resting = s !== undefined && (s.cooldownUntil ?? 0) > now;
      return {
        masked: k.masked,
        calls: s?.calls ?? 0,
        ...(resting && s.cooldownUntil !== null ? { coolingUntil: s.cooldownUntil } : {}),
        ...(resting && s.cooldownReason !== null ? { reason: s.cooldownReason } : {}),
      };
    });
  }

  private states(): Map<string, CredentialState> {
    const rows = this.state.credentialStates({ fingerprints: this.keys.map((k) => k.fingerprint) });
    return new Map(rows.map((row) => [row.fingerprint, row]));
  }

  private choose(params: { ready: readonly PoolKey[]; states: Map<string, CredentialState> }): PoolKey {
    const { ready, states } = params;
    const first = ready[0] as PoolKey;
    switch (this.strategy) {
      case 'fill_first':
        return first;
      case 'random':
        return ready[Math.min(ready.length - 1, Math.floor(this.random() * ready.length))] ?? first;
      case 'round_robin': {
        // The next ready key after the last one handed out, in configured order.
        const order = this.keys.map((k) => k.fingerprint);
        for (let step = 0; step < order.length; step++) {
          const index = (this.cursor + step) % order.length;
          const found = ready.find((k) => k.fingerprint === order[index]);
          if (found) {
            this.cursor = index + 1;
            return found;
          }
        }
        return first;
      }
      case 'least_used': {
        let best = first;
        for (const k of ready) {
          if ((states.get(k.fingerprint)?.calls ?? 0) < (states.get(best.fingerprint)?.calls ?? 0)) best = k;
        }
        return best;
      }
    }
  }
}

/** How long a key rests after a failure of this reason (1 h for a rate limit, else 24 h). */
function cooldownMsFor(params: { reason: string | undefined }): number {
  return params.reason === 'rate_limit' ? RATE_LIMIT_COOLDOWN_MS : EXHAUSTED_COOLDOWN_MS;
}

/** Pool state kept in memory only (tests and callers without a store). */
export function memoryCredentialState(): CredentialStateStore {
  const rows = new Map<string, CredentialState>();
  const get = (fingerprint: string): CredentialState =>
    rows.get(fingerprint) ?? { fingerprint, calls: 0, cooldownUntil: null, cooldownReason: null };
  return {
    credentialStates: ({ fingerprints }) => fingerprints.flatMap((f) => (rows.has(f) ? [get(f)] : [])),
    recordCredentialUse: ({ fingerprint }) => {
      rows.set(fingerprint, { ...get(fingerprint), calls: get(fingerprint).calls + 1 });
    },
    setCredentialCooldown: ({ fingerprint, until, reason }) => {
      rows.set(fingerprint, { ...get(fingerprint), cooldownUntil: until, cooldownReason: reason });
    },
  };
}
