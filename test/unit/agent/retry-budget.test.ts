import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { IterationBudget } from '../../../src/agent/budget.js';
import { backoffDelayMs, sleepBeforeRetry } from '../../../src/agent/retry.js';
import { FakeClock, flushMicrotasks } from '../../helpers/fake-clock.js';

describe('backoff', () => {
  test('full jitter: a random share of min(30 s, 1 s * 2^attempt)', () => {
    const almostOne = (): number => 0.999_999;
    assert.equal(backoffDelayMs({ attempt: 0, random: () => 0 }), 0);
    assert.equal(backoffDelayMs({ attempt: 0, random: almostOne }), 999);
    assert.equal(backoffDelayMs({ attempt: 3, random: almostOne }), 7_999);
    assert.equal(backoffDelayMs({ attempt: 10, random: almostOne }), 29_999);
    assert.equal(backoffDelayMs({ attempt: 2, random: () => 0.5 }), 2_000);
  });

  test('Retry-After is honoured when it is longer than the jittered delay', () => {
    assert.equal(backoffDelayMs({ attempt: 0, retryAfterMs: 5_000, random: () => 0.5 }), 5_000);
    assert.equal(backoffDelayMs({ attempt: 4, retryAfterMs: 100, random: () => 0.5 }), 8_000);
  });

  test('sleepBeforeRetry waits on the clock and stops on abort', async () => {
    const clock = new FakeClock();
    let woke = false;
    const sleeping = sleepBeforeRetry({ attempt: 0, retryAfterMs: 1_000, clock, signal: new AbortController().signal, random: () => 0 }).then(
      (delay) => {
        woke = true;
        return delay;
      },
    );
    await clock.advance(999);
    assert.equal(woke, false);
    await clock.advance(1);
    assert.equal(await sleeping, 1_000);

    const controller = new AbortController();
    const aborted = sleepBeforeRetry({ attempt: 4, clock, signal: controller.signal });
    await flushMicrotasks();
    controller.abort(new Error('stop'));
    await assert.rejects(aborted, /stop/);
  });
});

describe('IterationBudget', () => {
  test('consumes up to max, refunds never above max', () => {
    const budget = new IterationBudget({ max: 2 });
    budget.refund();
    assert.deepEqual([budget.used, budget.remaining], [0, 2]);
    assert.equal(budget.tryConsume(), true);
    assert.equal(budget.tryConsume(), true);
    assert.equal(budget.tryConsume(), false);
    assert.deepEqual([budget.used, budget.remaining, budget.max], [2, 0, 2]);
    budget.refund();
    assert.equal(budget.remaining, 1);
    assert.equal(budget.tryConsume(), true);
    assert.equal(budget.tryConsume(), false);
  });

  test('refunds at most max units in total, so at most 2 × max units can be consumed', () => {
    const budget = new IterationBudget({ max: 2 });
    let consumed = 0;
    for (let i = 0; i < 100 && budget.tryConsume(); i++) {
      consumed += 1;
      budget.refund();
    }
    assert.equal(consumed, 4);
    assert.equal(budget.refund(), false, 'refund after the cap');
    assert.equal(budget.remaining, 0);
  });

  test('rejects a max that is not a positive integer', () => {
    assert.throws(() => new IterationBudget({ max: 0 }), /positive integer/);
  });
});
