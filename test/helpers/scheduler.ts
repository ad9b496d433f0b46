import { pino, type Logger } from 'pino';
import type { InjectParams, InjectResult } from '../../src/jobs/ports.js';
import type { DeliveryTarget, JobRow } from '../../src/store/job-types.js';
import { Scheduler, type SchedulerDeps } from '../../src/jobs/scheduler.js';
import { openStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import type { FakeClock } from './fake-clock.js';

const HOUR = 3_600_000;

/** A Telegram DM target (chat 42 unless told), the run's own chat unless `origin` is false. */
export function telegramDm(params: { chatId?: string; origin?: boolean } = {}): DeliveryTarget {
  return { kind: 'chat', platform: 'telegram', chat: { id: params.chatId ?? '42', kind: 'dm' }, origin: params.origin ?? true };
}

/** Creates a cron job (UTC, prompt `p`) due at `nextRunAt`, answering to Telegram DM 42 unless other targets are given. */
export function createCronJob(params: { store: Store; name: string; cron: string; nextRunAt: number; targets?: readonly DeliveryTarget[] }): JobRow {
  return params.store.createJob({
    name: params.name,
    prompt: 'p',
    scheduleText: params.cron,
    schedule: { kind: 'cron', expression: params.cron },
    timeZone: 'UTC',
    targets: params.targets ?? [telegramDm()],
    nextRunAt: params.nextRunAt,
  });
}

/**
 * SchedulerDeps for a unit test: a silent logger, profile `work`, a one-hour catch-up window, no scrubbing, scripts in
 * /tmp with small limits, and a sendText that fails (for tests with no further targets); each can be overridden.
 */
export function schedulerDeps(params: {
  store: Store;
  clock: FakeClock;
  inject: (params: InjectParams) => InjectResult;
  sendText?: SchedulerDeps['sendText'];
  logger?: Logger;
  catchUpWindowMs?: number;
}): SchedulerDeps {
  return {
    store: params.store,
    clock: params.clock,
    logger: params.logger ?? pino({ level: 'silent' }),
    inject: params.inject,
    sendText: params.sendText ?? (async () => ({ ok: false, error: 'unused' })),
    profileName: () => 'work',
    catchUpWindowMs: () => params.catchUpWindowMs ?? HOUR,
    scrub: (text) => text,
    script: () => ({ workspace: '/tmp', terminal: { timeoutMs: 1000, maxOutputBytes: 1000 } }),
  };
}

/** An inject that records the turns it was asked for in `injected`, and refuses them. */
export function recordAndRefuse(injected: InjectParams[]): (params: InjectParams) => InjectResult {
  return (p) => {
    injected.push(p);
    return { kind: 'refused', reason: 'test' };
  };
}

/** A scheduler whose loop is running, and how to stop it (abort, then wait for the loop to end). */
export interface RunningScheduler {
  readonly scheduler: Scheduler;
  readonly stop: () => Promise<void>;
}

/** Starts a scheduler's loop over `deps`. */
export function startScheduler(deps: SchedulerDeps): RunningScheduler {
  const controller = new AbortController();
  const scheduler = new Scheduler(deps);
  const loop = scheduler.run({ signal: controller.signal });
  return {
    scheduler,
    stop: async () => {
      controller.abort();
      await loop;
    },
  };
}

/** Runs `body` with an in-memory store on `clock`, closing the store after (also when `body` throws). */
export async function withMemoryStore(params: { clock: FakeClock }, body: (store: Store) => Promise<void>): Promise<void> {
  const store = openStore({ path: ':memory:', clock: params.clock });
  try {
    await body(store);
  } finally {
    store.close();
  }
}
