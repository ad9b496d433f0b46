import type { HealthReport } from '../http/server.js';
import type { Clock } from '../../core/clock.js';
import { diskErrorKind, diskReason, type DiskErrorKind, type DiskPart, type DiskReporter } from '../../util/disk-error.js';

/** How often parts whose writes failed are tried again. */
export const diskProbeIntervalMs = 5000;

/** One part of the profile whose writes the disk refuses. */
export interface DiskProblem {
  readonly part: DiskPart;
  readonly kind: DiskErrorKind;
  /** What failed, in one line (no paths beyond the profile's own, no secrets). */
  readonly detail: string;
  /** When it first failed (ms since the epoch). */
  readonly since: number;
}

/** The disk as the gateway sees it: fine, or refusing writes of some parts. */
export type DiskStatus =
  | { readonly state: 'ok' }
  | {
      readonly state: 'degraded';
      /** The worst kind among the problems (a full disk first, then read-only, then I/O errors). */
      readonly kind: DiskErrorKind;
      /** "disk full", "read-only filesystem" or "disk I/O error". */
      readonly reason: string;
      readonly problems: readonly DiskProblem[];
    };

/** A part started or stopped failing. */
export type DiskChange =
  | { readonly state: 'failed'; readonly problem: DiskProblem }
  | { readonly state: 'recovered'; readonly part: DiskPart; readonly failedFor: number };

/** A check that a part takes writes again: returns false or throws while it does not. */
export type DiskProbe = () => boolean;

const severity: readonly DiskErrorKind[] = ['diskFull', 'readOnly', 'io'];

/**
 * What the gateway knows about its disk: writers (log file, store, state file) report refused and successful
 * writes; while any part fails, a probe loop tries those parts again on the clock, so the condition clears by
 * itself once space returns, even when no message comes in. Never throws into the writers that report to it.
 */
export class DiskHealth implements DiskReporter {
  private readonly clock: Clock;
  private readonly intervalMs: number;
  private readonly problems = new Map<DiskPart, DiskProblem>();
  private readonly probes = new Map<DiskPart, DiskProbe>();
  private readonly listeners = new Set<(change: DiskChange) => void>();

  /** `probeIntervalMs`: how often failing parts are tried again (default 5 s). */
  constructor(params: { clock: Clock; probeIntervalMs?: number }) {
    this.clock = params.clock;
    this.intervalMs = params.probeIntervalMs ?? diskProbeIntervalMs;
  }

  /** Records a refused write of `part` (the first one of a spell is announced to listeners). */
  failed(params: { part: DiskPart; kind: DiskErrorKind; detail: string }): void {
    const had = this.problems.get(params.part);
    const problem: DiskProblem = { ...params, since: had?.since ?? this.clock.now() };
    this.problems.set(params.part, problem);
    if (had === undefined) this.notify({ state: 'failed', problem });
  }

  /** Records a successful write of `part`, ending its problem if it had one. */
  succeeded(params: { part: DiskPart }): void {
    const had = this.problems.get(params.part);
    if (had === undefined) return;
    this.problems.delete(params.part);
    this.notify({ state: 'recovered', part: params.part, failedFor: this.clock.now() - had.since });
  }

  /** Sets how `part` is tried again while it fails; returns a function that removes it. */
  setProbe(params: { part: DiskPart; probe: DiskProbe }): () => void {
    const { part, probe } = params;
    this.probes.set(part, probe);
    return () => {
      if (this.probes.get(part) === probe) this.probes.delete(part);
    };
  }

  /** Calls `listener` on every change; returns a function that stops that. */
  onChange(listener: (change: DiskChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether `part` currently fails. */
  failing(params: { part: DiskPart }): boolean {
    return this.problems.has(params.part);
  }

  /** The current condition, for /healthz. */
  status(): DiskStatus {
    const problems = [...this.problems.values()];
    if (problems.length === 0) return { state: 'ok' };
    const kind = severity.find((k) => problems.some((p) => p.kind === k)) ?? 'io';
    return { state: 'degraded', kind, reason: diskReason({ kind }), problems };
  }

  /** Tries every failing part that has a probe once. */
  probeNow(): void {
    for (const part of [...this.problems.keys()]) {
      const probe = this.probes.get(part);
      if (probe === undefined) continue;
      try {
        if (probe()) this.succeeded({ part });
      } catch (error) {
        const kind = diskErrorKind({ error });
        const had = this.problems.get(part);
        if (kind !== undefined && had !== undefined && kind !== had.kind) this.problems.set(part, { ...had, kind });
      }
    }
  }

  /** Probes failing parts every interval until `signal` aborts. Never rejects. */
  async run(params: { signal: AbortSignal }): Promise<void> {
    while (!params.signal.aborted) {
      try {
        await this.clock.sleep(this.intervalMs, params.signal);
      } catch {
        return;
      }
      this.probeNow();
    }
  }

  private notify(change: DiskChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch {
        // A listener's failure (say, logging to a broken disk) must not reach the writer that reported.
      }
    }
  }
}

/** The /healthz form of a disk status (times as ISO strings). */
export function diskHealthReport(params: { status: DiskStatus }): NonNullable<HealthReport['disk']> {
  const { status } = params;
  if (status.state === 'ok') return { state: 'ok' };
  return {
    state: 'degraded',
    reason: status.reason,
    problems: status.problems.map((p) => ({ part: p.part, detail: p.detail, since: new Date(p.since).toISOString() })),
  };
}
