import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { Scheduler, type SchedulerDeps } from '../../../src/jobs/scheduler.js';
import type { InjectParams } from '../../../src/jobs/ports.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import type { Store } from '../../../src/store/types.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { createCronJob, recordAndRefuse, schedulerDeps, startScheduler, telegramDm, withMemoryStore } from '../../helpers/scheduler.js';

/** A fake clock that remembers how long each sleep was asked to be. */
class RecordingClock extends FakeClock {
  readonly sleeps: number[] = [];
  override sleep(ms: number, signal?: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    return super.sleep(ms, signal);
  }
}
const T = Date.parse('2026-12-01T10:00:00Z');

/** Deps of a scheduler over `store` whose inject records the turns it was asked for (and refuses them), logging errors into `errors`. */
function depsOver(params: { store: Store; clock: FakeClock; injected: InjectParams[]; errors: string[] }): SchedulerDeps {
  const logger = pino({ level: 'error' }, { write: (line: string) => params.errors.push(line) });
  return schedulerDeps({ store: params.store, clock: params.clock, logger, inject: recordAndRefuse(params.injected) });
}

test('a store that refuses writes (disk full) makes the loop back off, not spin, and the due job runs once the store recovers', async () => {
  const clock = new RecordingClock(T + 1000);
  await withMemoryStore({ clock }, async (store) => {
    const job = createCronJob({ store, name: 'hourly', cron: '0 * * * *', nextRunAt: T });
    let full = true;
    let claims = 0;
    const claimRun = store.claimRun.bind(store);
    store.claimRun = (p) => {
      claims++;
      if (full) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      return claimRun(p);
    };
    const injected: InjectParams[] = [];
    const errors: string[] = [];
    const running = startScheduler(depsOver({ store, clock, injected, errors }));
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(claims, 1);
    assert.equal(errors.length, 1, 'one error line');
    assert.ok(clock.pending > 0, 'the loop is asleep on the clock');
    // The due job could not be claimed, so it is still due: sleeping "until it is due" would be 0 ms, a spin.
    assert.ok((clock.sleeps.at(-1) ?? 0) >= 1000, `after the failure the loop sleeps ${clock.sleeps.at(-1) ?? 'nothing'} ms`);
    await clock.advance(10_000);
    assert.ok(claims >= 2, 'it tries again after the back-off');
    assert.ok(claims <= 3, `${claims} tries in 10 s`);
    full = false;
    await clock.advance(60_000);
    await new Promise((r) => setTimeout(r, 50));
    assert.ok(injected.length >= 1, 'once the store takes writes again the due job runs');
    assert.equal(store.runsOf({ jobId: job.id, limit: 5 }).length, 1, 'one run of the 10:00 time');
    await running.stop();
  });
});

test('a store that cannot be read when the loop computes its sleep does not end the loop', async () => {
  const clock = new FakeClock(T + 1000);
  const store = openStore({ path: ':memory:', clock });
  const controller = new AbortController();
  try {
    let broken = true;
    const listJobs = store.listJobs.bind(store);
    store.listJobs = (p) => {
      if (broken) throw new Error('disk I/O error');
      return listJobs(p);
    };
    const injected: InjectParams[] = [];
    const errors: string[] = [];
    let ended = false;
    const loop = new Scheduler(depsOver({ store, clock, injected, errors }))
      .run({ signal: controller.signal })
      .then(
        () => {
          ended = true;
        },
        () => {
          ended = true;
        },
      );
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(ended, false, 'the loop is still running');
    broken = false;
    store.createJob({
      name: 'soon',
      prompt: 'p',
      scheduleText: 'in 2m',
      schedule: { kind: 'once', atMs: T + 120_000 },
      timeZone: 'UTC',
      targets: [telegramDm()],
      nextRunAt: T + 120_000,
    });
    await clock.advance(120_000);
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(injected.length, 1, 'the job created after the store recovered runs');
    controller.abort();
    await loop;
  } finally {
    store.close();
  }
});
