import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MODEL_LIST_TIMEOUT_MS, ModelList } from '../../../src/gateway/commands/model-list.js';
import { FakeClock } from '../../helpers/fake-clock.js';

/** A fetch whose answers the test gives: each call waits until `answer` (or its signal aborts). */
function scriptedFetch(): { fetch: typeof fetch; calls: () => number; answer: (body: unknown, status?: number) => void } {
  let calls = 0;
  let pending: ((response: Response) => void) | undefined;
  const fake = (async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    calls += 1;
    return new Promise<Response>((resolve, reject) => {
      pending = resolve;
      init?.signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
    });
  }) as typeof fetch;
  return { fetch: fake, calls: () => calls, answer: (body, status = 200) => pending?.(new Response(JSON.stringify(body), { status })) };
}

test('ModelList: a silent endpoint costs at most the timeout (then unavailable, remembered a minute); a listing is cached ten minutes', async () => {
  const clock = new FakeClock();
  const fetcher = scriptedFetch();
  const list = new ModelList({ baseUrl: 'http://127.0.0.1:9/v1/', clock, fetch: fetcher.fetch });
  const first = list.list();
  const second = list.list();
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(fetcher.calls(), 1, 'concurrent callers share one request');
  await clock.advance(MODEL_LIST_TIMEOUT_MS);
  assert.deepEqual(await first, { kind: 'unavailable', why: 'GET /models did not answer in time' });
  assert.deepEqual(await second, await first);
  assert.equal((await list.list()).kind, 'unavailable');
  assert.equal(fetcher.calls(), 1, 'a failure is remembered');

  await clock.advance(60_000);
  const third = list.list();
  await new Promise((resolve) => setImmediate(resolve));
  fetcher.answer({ object: 'list', data: [{ id: 'b-model' }, { id: 'a-model' }, { id: 'a-model' }] });
  assert.deepEqual(await third, { kind: 'listed', names: ['a-model', 'b-model'] });
  await clock.advance(9 * 60_000);
  assert.equal((await list.list()).kind, 'listed');
  assert.equal(fetcher.calls(), 2, 'cached');
  await clock.advance(2 * 60_000);
  const fourth = list.list();
  await new Promise((resolve) => setImmediate(resolve));
  fetcher.answer({ error: 'nope' }, 401);
  assert.deepEqual(await fourth, { kind: 'unavailable', why: 'GET /models answered 401' });
});
