import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maxHeldMessages, RefusedHold } from '../../../adapters/kit/refused-hold.js';
import { JournalRefusedError } from '../../../src/core/errors.js';
import { FakeClock } from '../../helpers/fake-clock.js';

test('RefusedHold: offers a refused message again on the clock until taken, gives up after the hold time, holds a bounded number', async () => {
  const clock = new FakeClock(0);
  const hold = new RefusedHold({ clock, retryMs: 1000, holdMs: 5000 });
  const signal = new AbortController().signal;
  let full = true;
  let tries = 0;
  const take = async (): Promise<void> => {
    tries += 1;
    if (full) throw new JournalRefusedError({ reason: 'disk full' });
  };
  const taken = hold.retry({ take, signal });
  await clock.advance(2000);
  assert.equal(tries, 2);
  assert.equal(hold.size, 1);
  full = false;
  await clock.advance(1000);
  assert.equal(await taken, true);
  assert.equal(hold.size, 0);

  full = true;
  const given = hold.retry({ take, signal });
  await clock.advance(6000);
  assert.equal(await given, false, 'given up after holdMs: the caller tells the sender');

  const other = assert.rejects(hold.retry({ take: async () => Promise.reject(new Error('other failure')), signal }), /other failure/, 'only a refused journal is held; other errors go to the caller');
  await clock.advance(1000);
  await other;
  const many = Array.from({ length: maxHeldMessages }, () => hold.retry({ take, signal }));
  assert.equal(await hold.retry({ take, signal }), false, 'beyond the bound a message is given up at once');
  await clock.advance(6000);
  assert.deepEqual(new Set(await Promise.all(many)), new Set([false]));
});
