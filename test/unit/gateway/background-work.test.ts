import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BackgroundAbort, BackgroundWork } from '../../../src/gateway/review/background-work.js';
import { FakeClock, flushMicrotasks } from '../../helpers/fake-clock.js';

/** Work that runs until its signal aborts, recording why. */
function untilAborted(reasons: string[]): (signal: AbortSignal) => Promise<void> {
  return (signal) =>
    new Promise<void>((resolve) => {
      signal.addEventListener('abort', () => {
        const why: unknown = signal.reason;
        reasons.push(why instanceof BackgroundAbort ? why.reason : 'other');
        resolve();
      });
    });
}

const hour = 3_600_000;

test('one piece per session, a global limit, abort by session, stop aborts the rest and waits', async () => {
  const reasons: string[] = [];
  const work = new BackgroundWork({ maxConcurrent: 2, clock: new FakeClock() });
  assert.equal(work.start({ key: 'a', timeoutMs: hour, run: untilAborted(reasons) }), 'started');
  assert.equal(work.start({ key: 'a', timeoutMs: hour, run: untilAborted(reasons) }), 'session_busy');
  assert.equal(work.start({ key: 'b', timeoutMs: hour, run: untilAborted(reasons) }), 'started');
  assert.equal(work.start({ key: 'c', timeoutMs: hour, run: untilAborted(reasons) }), 'limit');
  assert.equal(work.size, 2);
  assert.equal(work.abort({ key: 'a', reason: 'new_message' }), true);
  assert.equal(work.abort({ key: 'a', reason: 'new_message' }), false);
  assert.equal(work.has({ key: 'a' }), false);
  await flushMicrotasks();
  assert.equal(work.start({ key: 'c', timeoutMs: hour, run: untilAborted(reasons) }), 'started');
  await work.stop();
  assert.deepEqual(reasons.sort(), ['new_message', 'shutdown', 'shutdown']);
  assert.equal(work.size, 0);
  assert.equal(work.start({ key: 'd', timeoutMs: hour, run: untilAborted(reasons) }), 'stopped');
});

test('finished or failing work frees its session slot', async () => {
  const work = new BackgroundWork({ maxConcurrent: 1, clock: new FakeClock() });
  let finish = (): void => undefined;
  assert.equal(work.start({ key: 'a', timeoutMs: hour, run: () => new Promise<void>((r) => (finish = r)) }), 'started');
  finish();
  await new Promise((r) => setImmediate(r));
  assert.equal(work.start({ key: 'a', timeoutMs: hour, run: () => Promise.reject(new Error('boom')) }), 'started');
  await new Promise((r) => setImmediate(r));
  assert.equal(work.size, 0);
  await work.stop();
});

test('work that never ends on its own is aborted with reason timeout after timeoutMs, and frees its slot', async () => {
  const clock = new FakeClock();
  const reasons: string[] = [];
  const work = new BackgroundWork({ maxConcurrent: 1, clock });
  assert.equal(work.start({ key: 'a', timeoutMs: 60_000, run: untilAborted(reasons) }), 'started');
  await clock.advance(59_999);
  assert.deepEqual(reasons, []);
  await clock.advance(1);
  assert.deepEqual(reasons, ['timeout']);
  await new Promise((r) => setImmediate(r));
  assert.equal(work.size, 0);
  assert.equal(clock.pending, 0, 'no timer left behind');
  // Work that ends in time leaves no timer either.
  let finish = (): void => undefined;
  assert.equal(work.start({ key: 'b', timeoutMs: 60_000, run: () => new Promise<void>((r) => (finish = r)) }), 'started');
  finish();
  await new Promise((r) => setImmediate(r));
  assert.equal(clock.pending, 0);
  await work.stop();
});

test('aborted work that has not settled yet still counts against the limit (never more than maxConcurrent running)', async () => {
  const work = new BackgroundWork({ maxConcurrent: 1, clock: new FakeClock() });
  let settle = (): void => undefined;
  // Work that ignores its signal for a while (a tool call that does not listen).
  assert.equal(work.start({ key: 'a', timeoutMs: hour, run: () => new Promise<void>((r) => (settle = r)) }), 'started');
  work.abort({ key: 'a', reason: 'new_message' });
  assert.equal(work.start({ key: 'b', timeoutMs: hour, run: () => Promise.resolve() }), 'limit');
  settle();
  await new Promise((r) => setImmediate(r));
  assert.equal(work.start({ key: 'b', timeoutMs: hour, run: () => Promise.resolve() }), 'started');
  await work.stop();
});

test('stop waits for aborted work at most graceMs, then gives up and says so', async () => {
  const clock = new FakeClock();
  const late: number[] = [];
  const work = new BackgroundWork({ maxConcurrent: 2, clock, onLate: ({ pieces }) => late.push(pieces) });
  // Work that ignores its signal.
  assert.equal(work.start({ key: 'a', timeoutMs: hour, run: () => new Promise<void>(() => undefined) }), 'started');
  let stopped = false;
  const stopping = work.stop({ graceMs: 5000 }).then(() => (stopped = true));
  await clock.advance(4999);
  assert.equal(stopped, false);
  await clock.advance(1);
  await stopping;
  assert.deepEqual(late, [1]);
});
