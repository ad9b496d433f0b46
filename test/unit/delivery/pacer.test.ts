import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeClock, flushMicrotasks } from '../../helpers/fake-clock.js';
import { ChatPacer } from '../../../src/gateway/delivery/pacer.js';
import { RateLimitError } from '../../../src/core/errors.js';
import { settle } from './helpers.js';

function setup(params: { maxChats?: number; maxRateLimits?: number } = {}): { clock: FakeClock; pacer: ChatPacer; t0: number } {
  const clock = new FakeClock();
  const pacer = new ChatPacer({ clock, intervalMs: 1000, maxChats: params.maxChats ?? 100, ...(params.maxRateLimits ? { maxRateLimits: params.maxRateLimits } : {}) });
  return { clock, pacer, t0: clock.now() };
}

describe('ChatPacer', () => {
  test('measures the interval from the completion of the previous op', async () => {
    const { clock, pacer, t0 } = setup();
    const spans: { start: number; end: number }[] = [];
    const op = async (): Promise<void> => {
      const start = clock.now();
      await clock.sleep(700);
      spans.push({ start, end: clock.now() });
    };
    const both = Promise.all([pacer.run({ chatKey: 'a', op }), pacer.run({ chatKey: 'a', op })]);
    await settle({ clock, promise: both, stepMs: 10 });
    const [first, second] = spans;
    assert.ok(first && second);
    assert.equal(first.start, t0);
    assert.equal(first.end, t0 + 700);
    assert.ok(second.start >= first.end + 1000, `second started ${second.start - first.end} ms after the first ended`);
    assert.ok(second.start <= first.end + 1010);
  });

  test('a 429 with retry_after 5 s: no call before 5 s, then the same op once more, no duplicate', async () => {
    const { clock, pacer, t0 } = setup();
    const calls: number[] = [];
    const result = pacer.run({
      chatKey: 'a',
      op: async () => {
        calls.push(clock.now());
        if (calls.length === 1) throw new RateLimitError({ retryAfterMs: 5000, method: 'editMessageText' });
        return `ok after ${calls.length}`;
      },
    });
    await clock.advance(4999);
    assert.equal(calls.length, 1);
    assert.equal(await settle({ clock, promise: result, stepMs: 10 }), 'ok after 2');
    assert.equal(calls.length, 2);
    assert.ok((calls[1] ?? 0) - t0 >= 5000);
    await clock.advance(10_000);
    assert.equal(calls.length, 2);
  });

  test('gives up after consecutive rate limits with the last error', async () => {
    const { clock, pacer } = setup({ maxRateLimits: 5 });
    let calls = 0;
    const result = pacer.run({
      chatKey: 'a',
      op: async () => {
        calls += 1;
        throw new RateLimitError({ retryAfterMs: 1000, method: `sendMessage#${calls}` });
      },
    });
    await assert.rejects(settle({ clock, promise: result }), (error: unknown) => error instanceof RateLimitError && error.method === 'sendMessage#5');
    assert.equal(calls, 5);
  });

  test('other errors propagate at once and still start an interval', async () => {
    const { clock, pacer, t0 } = setup();
    let calls = 0;
    await assert.rejects(
      pacer.run({ chatKey: 'a', op: async () => { calls += 1; throw new Error('boom'); } }),
      /boom/,
    );
    assert.equal(calls, 1);
    let at = 0;
    await settle({ clock, promise: pacer.run({ chatKey: 'a', op: async () => { at = clock.now(); } }) });
    assert.ok(at - t0 >= 1000);
  });

  test('ops skipped by calledPlatform start no interval', async () => {
    const { clock, pacer, t0 } = setup();
    await pacer.run({ chatKey: 'a', op: async () => false, calledPlatform: (called) => called });
    let at = -1;
    await settle({ clock, promise: pacer.run({ chatKey: 'a', op: async () => { at = clock.now(); } }) });
    assert.equal(at, t0);
  });

  test('one chat runs FIFO and one at a time; other chats are independent', async () => {
    const { clock, pacer, t0 } = setup();
    const log: string[] = [];
    let running = 0;
    const op = (name: string) => async (): Promise<void> => {
      running += 1;
      assert.equal(running, 1);
      log.push(`${name}@${clock.now() - t0}`);
      await clock.sleep(100);
      running -= 1;
    };
    const blocked = pacer.run({
      chatKey: 'slow',
      op: async () => {
        if (!log.includes('slow-429')) {
          log.push('slow-429');
          throw new RateLimitError({ retryAfterMs: 10_000, method: 'sendMessage' });
        }
      },
    });
    const a = [pacer.run({ chatKey: 'a', op: op('a1') }), pacer.run({ chatKey: 'a', op: op('a2') }), pacer.run({ chatKey: 'a', op: op('a3') })];
    await settle({ clock, promise: Promise.all(a), stepMs: 10 });
    assert.deepEqual(log, ['slow-429', 'a1@0', 'a2@1100', 'a3@2200']);
    await settle({ clock, promise: blocked });
  });

  test('keeps at most maxChats idle chats, least recently used evicted first', async () => {
    const { clock, pacer } = setup({ maxChats: 3 });
    for (const key of ['a', 'b', 'c', 'd', 'e']) await pacer.run({ chatKey: key, op: async () => undefined });
    assert.ok(pacer.size <= 5);
    await clock.advance(1000);
    await pacer.run({ chatKey: 'f', op: async () => undefined });
    assert.equal(pacer.size, 3);
    // 'a' was evicted: it starts fresh, without waiting.
    let at = -1;
    await pacer.run({ chatKey: 'a', op: async () => { at = clock.now(); } });
    assert.equal(at, clock.now());
  });

  test('never evicts a busy chat or one still blocked by a rate limit', async () => {
    const { clock, pacer, t0 } = setup({ maxChats: 1, maxRateLimits: 1 });
    await assert.rejects(
      pacer.run({ chatKey: 'blocked', op: async () => { throw new RateLimitError({ retryAfterMs: 5000, method: 'sendMessage' }); } }),
      RateLimitError,
    );
    let longDone = false;
    const long = pacer.run({ chatKey: 'busy', op: async () => { await clock.sleep(3000); longDone = true; } });
    for (const key of ['x', 'y', 'z']) await settle({ clock, promise: pacer.run({ chatKey: key, op: async () => undefined }) });
    let busyAgainAt = -1;
    const busyAgain = pacer.run({ chatKey: 'busy', op: async () => { assert.ok(longDone); busyAgainAt = clock.now(); } });
    let blockedAt = -1;
    const blockedAgain = pacer.run({ chatKey: 'blocked', op: async () => { blockedAt = clock.now(); } });
    await settle({ clock, promise: Promise.all([long, busyAgain, blockedAgain]) });
    assert.ok(busyAgainAt >= t0 + 4000);
    assert.ok(blockedAt >= t0 + 5000);
    await clock.advance(10_000);
    await pacer.run({ chatKey: 'last', op: async () => undefined });
    assert.equal(pacer.size, 1);
  });

  test('hold (a typing call refused with 429): no op starts and rateLimited stays true until retry_after and the margin passed', async () => {
    const { clock, pacer, t0 } = setup();
    pacer.hold({ chatKey: 'a', retryAfterMs: 3000 });
    assert.equal(pacer.rateLimited({ chatKey: 'a' }), true);
    assert.equal(pacer.rateLimited({ chatKey: 'b' }), false, 'other chats are not held');
    let at = -1;
    const op = pacer.run({ chatKey: 'a', op: async () => { at = clock.now(); } });
    await clock.advance(3099);
    assert.equal(at, -1, 'nothing ran inside the hold');
    await settle({ clock, promise: op });
    assert.equal(at, t0 + 3100);
    assert.equal(pacer.rateLimited({ chatKey: 'a' }), false);
  });

  test('a hold that comes in while an op runs outlasts that op\'s own interval', async () => {
    const { clock, pacer, t0 } = setup();
    const first = pacer.run({
      chatKey: 'a',
      op: async () => {
        await clock.sleep(100);
        // The typing call beside it was refused meanwhile.
        pacer.hold({ chatKey: 'a', retryAfterMs: 5000 });
        await clock.sleep(100);
      },
    });
    let at = -1;
    const second = pacer.run({ chatKey: 'a', op: async () => { at = clock.now(); } });
    await settle({ clock, promise: Promise.all([first, second]), stepMs: 10 });
    assert.ok(at >= t0 + 100 + 5000 + 100, `the next op started ${at - t0} ms in, inside the hold`);
  });

  test('an aborted signal stops the wait and the op never runs', async () => {
    const { clock, pacer } = setup();
    await pacer.run({ chatKey: 'a', op: async () => undefined });
    const controller = new AbortController();
    let called = false;
    const waiting = pacer.run({ chatKey: 'a', op: async () => { called = true; }, signal: controller.signal });
    await clock.advance(500);
    controller.abort(new Error('stopping'));
    await assert.rejects(waiting, /stopping/);
    await clock.advance(2000);
    await flushMicrotasks();
    assert.equal(called, false);
  });
});

test('a chat with its own longer interval (e.g. a Telegram group) is paced by it', async () => {
  const clock = new FakeClock();
  const pacer = new ChatPacer({ clock, intervalMs: 1000, maxChats: 10, intervalFor: ({ chatKey }) => (chatKey.startsWith('-') ? 3000 : undefined) });
  const times: Record<string, number[]> = { group: [], dm: [] };
  const run = (key: string, bucket: string) => pacer.run({ chatKey: key, op: async () => void times[bucket]?.push(clock.now()) });
  const all = Promise.all([run('-100', 'group'), run('-100', 'group'), run('42', 'dm'), run('42', 'dm')]);
  for (let i = 0; i < 10; i++) await clock.advance(500);
  await all;
  assert.equal((times['group']?.[1] ?? 0) - (times['group']?.[0] ?? 0), 3000);
  assert.equal((times['dm']?.[1] ?? 0) - (times['dm']?.[0] ?? 0), 1000);
});
