import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BackgroundAbort, BackgroundWork } from '../../../src/gateway/background-work.js';

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

test('one piece per session, a global limit, abort by session, stop aborts the rest and waits', async () => {
  const reasons: string[] = [];
  const work = new BackgroundWork({ maxConcurrent: 2 });
  assert.equal(work.start({ key: 'a', run: untilAborted(reasons) }), 'started');
  assert.equal(work.start({ key: 'a', run: untilAborted(reasons) }), 'session_busy');
  assert.equal(work.start({ key: 'b', run: untilAborted(reasons) }), 'started');
  assert.equal(work.start({ key: 'c', run: untilAborted(reasons) }), 'limit');
  assert.equal(work.size, 2);
  assert.equal(work.abort({ key: 'a', reason: 'new_message' }), true);
  assert.equal(work.abort({ key: 'a', reason: 'new_message' }), false);
  assert.equal(work.has({ key: 'a' }), false);
  assert.equal(work.start({ key: 'c', run: untilAborted(reasons) }), 'started');
  await work.stop();
  assert.deepEqual(reasons.sort(), ['new_message', 'shutdown', 'shutdown']);
  assert.equal(work.size, 0);
  assert.equal(work.start({ key: 'd', run: untilAborted(reasons) }), 'stopped');
});

test('finished or failing work frees its session slot', async () => {
  const work = new BackgroundWork({ maxConcurrent: 1 });
  let finish = (): void => undefined;
  assert.equal(work.start({ key: 'a', run: () => new Promise<void>((r) => (finish = r)) }), 'started');
  finish();
  await new Promise((r) => setImmediate(r));
  assert.equal(work.start({ key: 'a', run: () => Promise.reject(new Error('boom')) }), 'started');
  await new Promise((r) => setImmediate(r));
  assert.equal(work.size, 0);
  await work.stop();
});
