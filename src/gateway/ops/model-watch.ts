import type { Logger } from 'pino';
import type { CheckLine } from '../../core/check-line.js';
import type { HealthReport } from '../http/server.js';
import type { Clock } from '../../core/clock.js';
import { errorMessage } from '../../util/error-text.js';

/** What the gateway last found out about its model endpoint (shown by /healthz and `hermes status`). */
export interface ModelStatus {
  /** ok: it answers; warn: it answers but something is off; fail: the gateway cannot use it; unknown: not checked yet. */
  readonly state: 'ok' | 'warn' | 'fail' | 'unknown';
  /** "name @ host". */
  readonly label: string;
  /** What was found (never a secret). */
  readonly detail: string;
  /** What to do about it. */
  readonly fix?: string;
  /** When it was checked (ms since the epoch), 0 before the first check. */
  readonly checkedAt: number;
}

/** Checks the model endpoint once (GET /models with the key, short timeout); never throws. */
export type ModelProbe = (params: { signal: AbortSignal }) => Promise<CheckLine>;

/** How often the endpoint is checked while it works, and while it fails. */
export const MODEL_WATCH_INTERVALS = { okMs: 5 * 60_000, failingMs: 30_000 } as const;

/**
 * Keeps the model endpoint's status fresh while the gateway runs: checks at start, then every 5 minutes
 * (every 30 s while it fails), so `hermes status` can say "model unreachable" before a user finds out by
 * getting no answer. The probe and label are read at each round, so a config reload takes effect.
 */
export class ModelWatch {
  private current: ModelStatus;

  constructor(private readonly params: { probe: () => ModelProbe; label: () => string; clock: Clock; logger: Logger }) {
    this.current = { state: 'unknown', label: params.label(), detail: 'not checked yet', checkedAt: 0 };
  }

  /** The latest status. */
  status(): ModelStatus {
    return this.current;
  }

  /** Checks until `signal` aborts. */
  async run(params: { signal: AbortSignal }): Promise<void> {
    const { signal } = params;
    while (!signal.aborted) {
      await this.checkOnce({ signal });
      const wait = this.current.state === 'fail' ? MODEL_WATCH_INTERVALS.failingMs : MODEL_WATCH_INTERVALS.okMs;
      await this.params.clock.sleep(wait, signal).catch(() => undefined);
    }
  }

  /** One check; logs when the state changes. */
  async checkOnce(params: { signal: AbortSignal }): Promise<ModelStatus> {
    const before = this.current.state;
    let checked: CheckLine;
    try {
      checked = await this.params.probe()({ signal: params.signal });
    } catch (error) {
      checked = { status: 'fail', name: 'model endpoint', detail: errorMessage(error) };
    }
    if (params.signal.aborted) return this.current;
    this.current = {
      state: checked.status,
      label: this.params.label(),
      detail: checked.detail,
      ...(checked.fix !== undefined ? { fix: checked.fix } : {}),
      checkedAt: this.params.clock.now(),
    };
    if (checked.status !== before) {
      const log = checked.status === 'fail' ? this.params.logger.warn.bind(this.params.logger) : this.params.logger.info.bind(this.params.logger);
      log({ model: this.current.label, state: checked.status, detail: checked.detail }, `model endpoint: ${checked.status === 'ok' ? 'answers' : checked.detail}`);
    }
    return this.current;
  }
}

/** The model part of /healthz: the status with its texts scrubbed of secrets and the time as ISO text. */
export function modelHealth(params: { status: ModelStatus; scrub: (text: string) => string }): NonNullable<HealthReport['model']> {
  const { status, scrub } = params;
  return {
    state: status.state,
    label: status.label,
    detail: scrub(status.detail),
    ...(status.fix !== undefined ? { fix: scrub(status.fix) } : {}),
    checkedAt: status.checkedAt === 0 ? null : new Date(status.checkedAt).toISOString(),
  };
}
