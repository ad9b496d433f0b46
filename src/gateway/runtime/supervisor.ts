import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.js';
import { backoffDelay } from '../../util/backoff.js';
import type { AdapterReport, AdapterStartParams, AdapterStorage, EmitOutcome, MessageEvent, PlatformAdapter } from '../../core/adapter.js';
import { AdapterFatalError } from '../../core/errors.js';
import { failureLog } from '../../util/net-failure.js';

/** Where a supervised adapter is. */
export type AdapterState = 'connecting' | 'connected' | 'reconnecting' | 'backing-off' | 'fatal' | 'stopped';

/** What /healthz and `hermes status` show for one adapter. */
export interface AdapterStatus {
  readonly name: string;
  readonly state: AdapterState;
  readonly since: number;
  readonly lastError: string | null;
  readonly restarts: number;
}

/** Tuning for restarts. */
export interface SupervisorBackoff {
  readonly baseMs: number;
  readonly maxMs: number;
  /** A run that stayed up this long resets the backoff. */
  readonly stableAfterMs: number;
}

const defaultBackoff: SupervisorBackoff = { baseMs: 1000, maxMs: 60_000, stableAfterMs: 60_000 };

/**
 * Keeps one adapter running: restarts it with jittered exponential backoff when it fails, so a crashing
 * adapter never stops the others, and records its state for health checks.
 */
export class AdapterSupervisor {
  private current: AdapterStatus;
  private readonly adapter: PlatformAdapter;
  private readonly emit: (event: MessageEvent) => Promise<EmitOutcome | void>;
  private readonly storage: AdapterStorage;
  private readonly mayTalk: AdapterStartParams['mayTalk'];
  private readonly choose: AdapterStartParams['choose'];
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly backoff: SupervisorBackoff;
  private settleFirst: () => void = () => undefined;
  /** Resolves when the adapter's first start has an outcome: connected, failed (backing off or fatal) or stopped. */
  readonly firstOutcome: Promise<void> = new Promise((resolve) => (this.settleFirst = resolve));

  constructor(params: {
    adapter: PlatformAdapter;
    /** Takes a message; resolves once it is journaled, with what became of it (the runner's accept result; void: queued). */
    emit: (event: MessageEvent) => Promise<EmitOutcome | void>;
    storage: AdapterStorage;
    mayTalk: AdapterStartParams['mayTalk'];
    choose: AdapterStartParams['choose'];
    clock: Clock;
    logger: Logger;
    backoff?: Partial<SupervisorBackoff>;
  }) {
    this.adapter = params.adapter;
    this.emit = params.emit;
    this.storage = params.storage;
    this.mayTalk = params.mayTalk;
    this.choose = params.choose;
    this.clock = params.clock;
    this.logger = params.logger.child({ adapter: params.adapter.name });
    this.backoff = { ...defaultBackoff, ...params.backoff };
    this.current = { name: params.adapter.name, state: 'connecting', since: this.clock.now(), lastError: null, restarts: 0 };
  }

  /** The adapter's current status. */
  status(): AdapterStatus {
    return this.current;
  }

  /** Runs the adapter until `signal` aborts. Never rejects. */
  async run(params: { signal: AbortSignal }): Promise<void> {
    const { signal } = params;
    let attempt = 0;
    while (!signal.aborted) {
      const startedAt = this.clock.now();
      this.set({ state: attempt === 0 ? 'connecting' : 'reconnecting' });
      let failure: unknown = null;
      try {
        await this.adapter.start({ signal, emit: async (event) => void (await this.emit(event)), emitWithOutcome: (event) => this.emitWithOutcome(event), report: (r) => this.onReport(r), storage: this.storage, mayTalk: this.mayTalk, choose: this.choose });
        if (signal.aborted) break;
        failure = new Error(`${this.adapter.name} adapter stopped without being asked to`);
      } catch (error) {
        if (signal.aborted) break;
        failure = error;
      }
      // An expected failure (refused, DNS, timeout, TLS, a 401) is one line with its cause; a bug keeps its stack.
      const log = failureLog({ error: failure, msg: 'adapter failed', logger: this.logger });
      const message = failure instanceof AdapterFatalError ? failure.message : log.text;
      if (failure instanceof AdapterFatalError) {
        // The adapter's own words already say what is wrong (a rejected token, a missing setting): no stack unless debug.
        const debug = this.logger.isLevelEnabled('debug') ? { err: failure } : {};
        this.logger.error({ hint: failure.hint, ...debug }, `adapter failed and will not be restarted: ${failure.message}`);
        this.set({ state: 'fatal', lastError: failure.hint ? `${message} (${failure.hint})` : message });
        return;
      }
      if (this.clock.now() - startedAt >= this.backoff.stableAfterMs) attempt = 0;
      const delay = backoffDelay({ attempt, baseMs: this.backoff.baseMs, maxMs: this.backoff.maxMs });
      attempt += 1;
      this.logger.warn({ ...log.fields, retryInMs: delay, attempt }, `${log.msg}; restarting in ${Math.round(delay / 100) / 10}s`);
      this.set({ state: 'backing-off', lastError: message, restarts: this.current.restarts + 1 });
      try {
        await this.clock.sleep(delay, signal);
      } catch {
        break;
      }
    }
    this.set({ state: 'stopped' });
  }

  /** Emits, telling what became of the message ('queued' when the emit function does not say). */
  private async emitWithOutcome(event: MessageEvent): Promise<EmitOutcome> {
    const outcome = await this.emit(event);
    return typeof outcome === 'string' ? outcome : 'queued';
  }

  private onReport(report: AdapterReport): void {
    if (report.state === 'connected') {
      if (this.current.state !== 'connected') this.logger.info('adapter connected');
      this.set({ state: 'connected' });
    } else {
      this.logger.warn({ reason: report.reason }, 'adapter reconnecting');
      this.set({ state: 'reconnecting', lastError: report.reason });
    }
  }

  private set(change: Partial<Omit<AdapterStatus, 'name' | 'since'>>): void {
    const stateChanged = change.state !== undefined && change.state !== this.current.state;
    this.current = { ...this.current, ...change, since: stateChanged ? this.clock.now() : this.current.since };
    if (this.current.state !== 'connecting') this.settleFirst();
  }
}
