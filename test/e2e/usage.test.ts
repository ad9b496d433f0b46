import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startHarness } from '../helpers/harness.js';
import { until } from '../helpers/converse.js';

test('usage is stored per model call with the session and /status shows the totals', async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue(
      { toolCalls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }], usage: { prompt_tokens: 2000, completion_tokens: 40, cached_tokens: 0 } },
      { text: 'no such file', usage: { prompt_tokens: 2100, completion_tokens: 10, cached_tokens: 1920 } },
      { text: 'hello again', usage: { prompt_tokens: 2200, completion_tokens: 8, cached_tokens: 2048 } },
    );
    await h.adapter.inject({ text: 'read missing.txt' });
    await h.runner.waitIdle();
    await h.adapter.inject({ text: 'hi' });
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown().at(-1)?.text, 'hello again');
    assert.ok(h.fake.requests.every((r) => (r.body['stream_options'] as { include_usage?: boolean } | undefined)?.include_usage === true));

    const store = h.readStore();
    try {
      const [session] = store.listSessions({ limit: 5 });
      assert.ok(session);
      assert.deepEqual(store.sessionUsage({ sessionId: session.id }), {
        calls: 3,
        unreported: 0,
        promptTokens: 6300,
        completionTokens: 58,
        cachedTokens: 3968,
      });
    } finally {
      store.close();
    }

    const before = h.adapter.shown().length;
    await h.adapter.inject({ text: '/status' });
    await until(() => h.adapter.shown().length > before, 'the /status reply');
    assert.match(h.adapter.shown().at(-1)?.text ?? '', /^Usage: 3 model calls, 6,300 prompt \/ 58 completion tokens \(3,968 cached\)$/m);

    // A new session starts from zero.
    await h.adapter.inject({ text: '/new' });
    await until(() => h.adapter.shown().length > before + 1, 'the /new reply');
    await h.adapter.inject({ text: '/status' });
    await until(() => h.adapter.shown().length > before + 2, 'the second /status reply');
    assert.match(h.adapter.shown().at(-1)?.text ?? '', /^Usage: no model calls yet$/m);
  } finally {
    await h.stop();
  }
});

test('an endpoint that refuses stream_options answers anyway and /status says usage is not reported', async () => {
  const h = await startHarness();
  try {
    h.fake.refuseStreamOptions = true;
    h.fake.enqueue({ text: 'first' }, { text: 'second' });
    await h.adapter.inject({ text: 'one' });
    await h.runner.waitIdle();
    await h.adapter.inject({ text: 'two' });
    await h.runner.waitIdle();
    assert.deepEqual(h.adapter.shown().map((m) => m.text), ['first', 'second']);
    assert.deepEqual(h.fake.requests.map((r) => r.body['stream_options']), [{ include_usage: true }, undefined, undefined]);
    await h.adapter.inject({ text: '/status' });
    await until(() => h.adapter.shown().length === 3, 'the /status reply');
    assert.match(h.adapter.shown().at(-1)?.text ?? '', /^Usage: 2 model calls; usage not reported by the endpoint$/m);
  } finally {
    await h.stop();
  }
});
