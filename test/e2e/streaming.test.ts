import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeClock } from '../helpers/fake-clock.js';
import { startHarness } from '../helpers/harness.js';

const answer = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ') + '.';

test('a message in → streamed edits no more often than the interval → final text equal to the model text', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock });
  try {
    const words = answer.split(' ');
    h.fake.enqueue({ chunks: words.map((w, i) => (i === 0 ? w : ` ${w}`)), chunkDelayMs: 15 });
    await h.adapter.inject({ text: 'tell me forty words' });
    // Drive fake time forward while the real model stream arrives.
    const deadline = Date.now() + 10_000;
    const done = (): boolean => h.adapter.shown()[0]?.text === answer;
    while (!done()) {
      assert.ok(Date.now() < deadline, 'the reply did not complete');
      await clock.advance(100);
      await new Promise((r) => setTimeout(r, 5));
    }
    await h.runner.waitIdle();
    const ops = h.adapter.calls.filter((c) => c.kind !== 'typing');
    assert.equal(ops[0]?.kind, 'send');
    assert.ok(ops.length >= 3, `expected several edits, got ${ops.length} ops`);
    for (let i = 1; i < ops.length; i++) {
      const gap = (ops[i]?.at ?? 0) - (ops[i - 1]?.at ?? 0);
      assert.ok(gap >= 1000, `op ${i} came ${gap} ms after the previous one`);
    }
    // One message, grown by edits only; the cursor was shown while streaming and is gone at the end.
    assert.equal(h.adapter.shown().length, 1);
    assert.ok(ops.slice(0, -1).some((o) => o.text.endsWith(' ▉')));
    assert.equal(h.adapter.shown()[0]?.text, answer);
    // The model saw the user's text; the session stored both sides.
    assert.equal(h.fake.requests.length, 1);
    const store = h.readStore();
    try {
      const [session] = store.listSessions({ limit: 5 });
      assert.ok(session);
      const history = store.history({ sessionId: session.id });
      assert.deepEqual(history.map((m) => m.role), ['user', 'assistant']);
      assert.equal(history[1]?.content, answer);
      assert.equal(store.pendingInbound().length, 0);
    } finally {
      store.close();
    }
  } finally {
    await h.stop();
  }
});

test('a platform without edit support gets only the final text', async () => {
  const h = await startHarness({ capabilities: { edit: false } });
  try {
    h.fake.enqueue({ text: answer, chunkDelayMs: 2 });
    await h.adapter.inject({ text: 'hi' });
    await h.adapter.waitFor({ predicate: () => h.adapter.shown().length === 1, what: 'one message' });
    await h.runner.waitIdle();
    assert.equal(h.adapter.calls.filter((c) => c.kind === 'edit').length, 0);
    assert.equal(h.adapter.shown()[0]?.text, answer);
  } finally {
    await h.stop();
  }
});

test('a redelivered message is processed once', async () => {
  const h = await startHarness();
  try {
    h.fake.setResponder(() => ({ text: 'only once' }));
    await h.adapter.inject({ text: 'hello', messageId: 'same-id' });
    await h.adapter.inject({ text: 'hello', messageId: 'same-id' });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 1);
    assert.equal(h.adapter.shown().length, 1);
  } finally {
    await h.stop();
  }
});

test('unknown senders never reach the agent or the session store', async () => {
  const h = await startHarness({ allow: ['user-1'] });
  try {
    h.fake.setResponder(() => ({ text: 'hi owner' }));
    await h.adapter.inject({ text: 'let me in', senderId: 'stranger' });
    await h.adapter.inject({ text: 'hello', senderId: 'user-1' });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 1);
    const store = h.readStore();
    try {
      assert.equal(store.search({ query: 'let', limit: 10 }).length, 0);
      assert.equal(store.listSessions({ limit: 10 }).length, 1);
    } finally {
      store.close();
    }
  } finally {
    await h.stop();
  }
});
