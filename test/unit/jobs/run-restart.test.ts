import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { injectTurn } from '../../../src/gateway/inject/inject.js';
import { type InjectParams, type InjectResult } from '../../../src/jobs/ports.js';
import { TurnWatch } from '../../../src/gateway/inject/watch.js';
import { runAttempt } from '../../../src/jobs/run-job.js';
import type { SchedulerDeps } from '../../../src/jobs/run-types.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import type { Store } from '../../../src/store/types.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const minute = 60_000;
const T = Date.parse('2026-12-01T10:00:00Z');

/** A store with one due job whose run was claimed and its turn journaled, then left by a "crash" after the turn ended. */
function crashedRun(params: { store: Store; clock: FakeClock; answer: string | undefined }): { deps: SchedulerDeps; jobId: string } {
  const { store, clock } = params;
  const job = store.createJob({
    name: 'Bank',
    prompt: 'Remind me.',
    scheduleText: 'once',
    schedule: { kind: 'once', atMs: T },
    timeZone: 'UTC',
    targets: [{ kind: 'chat', platform: 'test', chat: { id: 'chat-1', kind: 'dm' }, origin: true }],
    nextRunAt: T,
  });
  const queued: number[] = [];
  const inject = (p: InjectParams): InjectResult => injectTurn({ ...p, store, clock, watch: new TurnWatch(), enqueue: (row) => queued.push(row.id) > 0 });
  const deps: SchedulerDeps = {
    store,
    clock,
    logger: pino({ level: 'silent' }),
    inject,
    sendText: async () => ({ ok: false, error: 'no platform in this test' }),
    profileName: () => 'work',
    catchUpWindowMs: () => 60 * minute,
    scrub: (text) => text,
    script: () => ({ workspace: '/tmp', terminal: { timeoutMs: 1000, maxOutputBytes: 1000 } }),
  };
  const run = store.claimRun({ jobId: job.id, scheduledFor: T, now: T, nextRunAt: null });
  assert.ok(run);
  // The first process: the turn is journaled and queued; it ends (model unreachable, or an answer) and is completed.
  const first = inject({ platform: 'test', chat: { id: 'chat-1', kind: 'dm' }, text: job.prompt, sessionKey: `work:test:chat-1:job=${job.id}:run=${run.id}.1`, origin: { kind: 'job', jobId: job.id, runId: run.id }, messageId: `job:${job.id}:${run.id}:1` });
  assert.equal(first.kind, 'queued');
  if (first.kind !== 'queued') throw new Error('not queued');
  const session = store.activeSession({ key: `work:test:chat-1:job=${job.id}:run=${run.id}.1` });
  assert.ok(session);
  store.appendMessage({ sessionId: session.id, inboxId: first.inboxId, role: 'user', content: job.prompt });
  if (params.answer !== undefined) store.appendMessage({ sessionId: session.id, inboxId: first.inboxId, role: 'assistant', content: params.answer });
  store.completeTurn({ inboxId: first.inboxId });
  // ... and the process died before the scheduler recorded how the run went: it is still open.
  assert.equal(store.openRuns().length, 1);
  assert.equal(queued.length, 1);
  return { deps, jobId: job.id };
}

test('a job turn that ended in an error (model unreachable) and is found done after a restart is retried in 5 minutes, not counted silent', async () => {
  const clock = new FakeClock(T + 1000);
  const store = openStore({ path: ':memory:', clock });
  try {
    const { deps, jobId } = crashedRun({ store, clock, answer: undefined });
    const [run] = store.openRuns();
    const job = store.job({ jobId });
    assert.ok(run && job);
    const outcome = await runAttempt({ deps, job, run, signal: new AbortController().signal });
    assert.equal(outcome, 'retrying');
    const [after] = store.runsOf({ jobId, limit: 1 });
    assert.equal(after?.outcome, 'retrying');
    assert.equal(after?.retryAt, clock.now() + 5 * minute, 'the model-retry rule: 5 minutes after the first try');
    assert.equal(store.pendingInbound().length, 0, 'the done turn is not queued again');
  } finally {
    store.close();
  }
});

test('a job turn found done after a restart whose answer was [SILENT] is silent (nothing sent)', async () => {
  const clock = new FakeClock(T + 1000);
  const store = openStore({ path: ':memory:', clock });
  try {
    const { deps, jobId } = crashedRun({ store, clock, answer: '[SILENT]' });
    const [run] = store.openRuns();
    const job = store.job({ jobId });
    assert.ok(run && job);
    assert.equal(await runAttempt({ deps, job, run, signal: new AbortController().signal }), 'silent');
    assert.equal(store.runsOf({ jobId, limit: 1 })[0]?.deliveries.length, 0);
  } finally {
    store.close();
  }
});
