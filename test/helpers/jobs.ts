import assert from 'node:assert/strict';
import type { OutboundMessage } from '../../src/core/adapter.js';
import type { DeliveryTarget, JobRow, JobRunRow, RunOutcome } from '../../src/store/job-types.js';
import { parseSchedule } from '../../src/util/schedule/schedule.js';
import { nextRun } from '../../src/jobs/schedule-next.js';
import type { Store } from '../../src/store/types.js';
import type { FakeClock } from './fake-clock.js';
import type { Harness } from './harness.js';

/** A target in a chat of the test adapter. */
export function testChat(params: { chatId?: string; origin?: boolean } = {}): DeliveryTarget {
  return { kind: 'chat', platform: 'test', chat: { id: params.chatId ?? 'chat-1', kind: 'dm' }, origin: params.origin ?? true };
}

/** Creates a job in the harness's store the way the cronjob tool does (schedule parsed, first next run computed), then pokes the scheduler. */
export function createJob(params: {
  h: Harness;
  clock: FakeClock;
  name: string;
  prompt: string;
  schedule: string;
  script?: string;
  targets?: readonly DeliveryTarget[];
  /** Overrides the computed next run (a job whose runs were missed). */
  nextRunAt?: number;
}): JobRow {
  const { h, clock } = params;
  const now = clock.now();
  const parsed = parseSchedule({ text: params.schedule, timeZone: 'UTC', now });
  assert.ok(parsed.ok, `schedule ${params.schedule}`);
  const store = h.readStore();
  try {
    const job = store.createJob({
      name: params.name,
      prompt: params.prompt,
      script: params.script ?? null,
      scheduleText: params.schedule,
      schedule: parsed.schedule,
      timeZone: 'UTC',
      targets: params.targets ?? [testChat()],
      nextRunAt: params.nextRunAt ?? nextRun({ schedule: parsed.schedule, after: now, timeZone: 'UTC' }) ?? null,
    });
    h.runner.scheduler.poke();
    return job;
  } finally {
    store.close();
  }
}

/** Reads from a second handle on the harness's store. */
export function withStore<T>(h: Harness, fn: (store: Store) => T): T {
  const store = h.readStore();
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

/** A job's runs, newest first. */
export function runsOf(h: Harness, jobId: string): JobRunRow[] {
  return withStore(h, (store) => store.runsOf({ jobId, limit: 20 }));
}

/** Moves fake time forward in `stepMs` steps (letting real I/O with the fakes run between) until `check` holds. */
export async function driveUntil(params: { clock: FakeClock; check: () => boolean; what: string; stepMs?: number; maxMs?: number }): Promise<void> {
  const deadline = Date.now() + 15_000;
  const limit = params.clock.now() + (params.maxMs ?? 24 * 3600_000);
  while (!params.check()) {
    assert.ok(Date.now() < deadline && params.clock.now() < limit, `timed out waiting for ${params.what}`);
    await params.clock.advance(params.stepMs ?? 1000);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Makes the test adapter's sends throw `error` (a 500 unless told) while `when(message)` holds, until `heal()` is called. */
export function failSends(params: { h: Harness; when: (message: OutboundMessage) => boolean; error?: string }): { heal: () => void } {
  let failing = true;
  const send = params.h.adapter.send.bind(params.h.adapter);
  params.h.adapter.send = async (message: OutboundMessage): Promise<{ messageId: string }> => {
    if (failing && params.when(message)) throw new Error(params.error ?? '500: Internal Server Error');
    return send(message);
  };
  return { heal: () => (failing = false) };
}

/** Moves fake time forward in 5 s steps until the job's newest run has `outcome`. */
export async function driveToOutcome(params: { h: Harness; clock: FakeClock; jobId: string; outcome: RunOutcome; what: string }): Promise<void> {
  await driveUntil({ clock: params.clock, check: () => runsOf(params.h, params.jobId)[0]?.outcome === params.outcome, what: params.what, stepMs: 5000 });
}
