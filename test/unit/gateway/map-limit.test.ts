import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mapLimit } from '../../../src/util/map-limit.js';

test('mapLimit keeps order and never runs more than the limit at once', async () => {
  let running = 0;
  let peak = 0;
  const results = await mapLimit({
    items: [50, 10, 30, 5, 20, 1],
    limit: 2,
    fn: async (ms) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, ms));
      running -= 1;
      return ms * 2;
    },
  });
  assert.deepEqual(results, [100, 20, 60, 10, 40, 2]);
  assert.equal(peak, 2);
  assert.deepEqual(await mapLimit({ items: [], limit: 3, fn: async (x: number) => x }), []);
});
