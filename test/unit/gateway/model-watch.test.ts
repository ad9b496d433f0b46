import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import type { CheckLine } from '../../../src/core/check-line.js';
import { MODEL_WATCH_INTERVALS, ModelWatch } from '../../../src/gateway/ops/model-watch.js';
import { FakeClock } from '../../helpers/fake-clock.js';

/** Lets pending promise callbacks run. */
async function flush(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}

test('checks at start, every 5 min while the model answers and every 30 s while it fails; stops on abort', async () => {
  const clock = new FakeClock(1_000_000);
  const answers: CheckLine[] = [
    { status: 'ok', name: 'model endpoint', detail: 'answers' },
    { status: 'fail', name: 'model endpoint', detail: 'cannot connect to 127.0.0.1:9 (connection refused: nothing listens there)', fix: 'Start the model server' },
    { status: 'fail', name: 'model endpoint', detail: 'still down' },
    { status: 'ok', name: 'model endpoint', detail: 'answers again' },
  ];
  const calls: number[] = [];
  const lines: string[] = [];
  const watch = new ModelWatch({
    probe: () => async () => {
      calls.push(clock.now());
      return answers[Math.min(calls.length - 1, answers.length - 1)] ?? answers[0] as CheckLine;
    },
    label: () => 'm @ host',
    clock,
    logger: pino({ level: 'info' }, { write: (line: string) => void lines.push(line) }),
  });
  assert.equal(watch.status().state, 'unknown');
  const controller = new AbortController();
  const run = watch.run({ signal: controller.signal });
  await flush();
  assert.deepEqual(watch.status(), { state: 'ok', label: 'm @ host', detail: 'answers', checkedAt: 1_000_000 });
  await clock.advance(MODEL_WATCH_INTERVALS.okMs - 1);
  await flush();
  assert.equal(calls.length, 1, 'no second check before 5 minutes');
  await clock.advance(1);
  await flush();
  assert.equal(watch.status().state, 'fail');
  assert.equal(watch.status().fix, 'Start the model server');
  await clock.advance(MODEL_WATCH_INTERVALS.failingMs);
  await flush();
  assert.equal(watch.status().detail, 'still down');
  await clock.advance(MODEL_WATCH_INTERVALS.failingMs);
  await flush();
  assert.equal(watch.status().state, 'ok');
  assert.deepEqual(calls.map((t) => t - 1_000_000), [0, MODEL_WATCH_INTERVALS.okMs, MODEL_WATCH_INTERVALS.okMs + MODEL_WATCH_INTERVALS.failingMs, MODEL_WATCH_INTERVALS.okMs + 2 * MODEL_WATCH_INTERVALS.failingMs]);
  // Logged on changes only: ok, fail, ok (the second failure is not news).
  assert.deepEqual(lines.map((l) => (JSON.parse(l) as { state: string }).state), ['ok', 'fail', 'ok']);
  controller.abort();
  await run;
});

test('a probe that throws counts as a failure with its message', async () => {
  const clock = new FakeClock(0);
  const watch = new ModelWatch({
    probe: () => async () => {
      throw new Error('probe exploded');
    },
    label: () => 'm',
    clock,
    logger: pino({ level: 'silent' }),
  });
  const status = await watch.checkOnce({ signal: new AbortController().signal });
  assert.equal(status.state, 'fail');
  assert.equal(status.detail, 'probe exploded');
});
