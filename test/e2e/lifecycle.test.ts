import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AdapterStartParams, PlatformAdapter } from '../../src/core/adapter.js';
import { startHarness } from '../helpers/harness.js';

test('drain: a turn that outlives the drain timeout is interrupted, left open, and finished in place on the next start', async () => {
  const h = await startHarness({ config: { gateway: { drain_timeout: '300ms' }, stream: { edit_interval: '250ms' } } });
  try {
    h.fake.enqueue({ chunks: ['Half ', 'an ', 'answer'], hangAfterChunks: 3 }, { text: 'Half an answer, now complete.' });
    await h.adapter.inject({ text: 'take your time' });
    await h.adapter.waitFor({ predicate: () => (h.adapter.shown()[0]?.text ?? '').includes('answer'), what: 'partial reply' });
    const t0 = Date.now();
    await h.runner.stop();
    assert.ok(Date.now() - t0 < 4000, 'stop must not wait for the hung model');
    const partial = h.adapter.shown()[0]?.text ?? '';
    assert.doesNotMatch(partial, /stopped|complete/);
    const store = h.readStore();
    try {
      assert.equal(store.pendingInbound().length, 1, 'the cut-short turn stays journaled');
    } finally {
      store.close();
    }
    await h.restart();
    await h.adapter.waitFor({ predicate: () => h.adapter.shown()[0]?.text === 'Half an answer, now complete.', what: 'the reply finished in place' });
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown().length, 1, 'no second message');
    assert.equal(h.fake.requests.length, 2);
  } finally {
    await h.stop();
  }
});

test('accept during drain is refused, so the platform keeps the message for redelivery', async () => {
  const h = await startHarness();
  const event = {
    platform: 'test',
    messageId: 'late',
    chat: { id: 'chat-1', kind: 'dm' as const },
    sender: { id: 'user-1', isBot: false },
    text: 'too late',
    media: [],
    mentioned: true,
    receivedAt: Date.now(),
  };
  await h.runner.stop();
  await assert.rejects(h.runner.accept({ event, via: 'test' }), /shutting down/);
  await h.stop();
});

test('a message that arrives while draining is journaled and answered after the restart; a command then is refused', async () => {
  const h = await startHarness({ config: { gateway: { drain_timeout: '5s' }, stream: { edit_interval: '250ms' } } });
  try {
    h.fake.enqueue({ chunks: ['Slow ', 'but ', 'sure.'], chunkDelayMs: 300 }, { text: 'Answer to the late one.' });
    await h.adapter.inject({ text: 'first' });
    await h.adapter.waitFor({ predicate: () => (h.adapter.shown()[0]?.text ?? '').includes('Slow'), what: 'the first reply streaming' });
    const stopping = h.runner.stop();
    const late = { platform: 'test', messageId: 'late', chat: { id: 'chat-2', kind: 'dm' as const }, sender: { id: 'user-1', isBot: false }, text: 'arrived during the drain', media: [], mentioned: true, receivedAt: Date.now() };
    assert.equal(await h.runner.accept({ event: late, via: 'test' }), 'deferred');
    assert.equal(await h.runner.accept({ event: late, via: 'test' }), 'duplicate', 'a redelivery is still deduped');
    await assert.rejects(h.runner.accept({ event: { ...late, messageId: 'cmd', text: '/new' }, via: 'test' }), /shutting down/);
    await stopping;
    assert.equal(h.fake.requests.length, 1, 'the late message did not start a turn during the drain');
    await h.restart();
    await h.adapter.waitFor({ predicate: () => h.adapter.shown({ chatId: 'chat-2' }).some((m) => m.text === 'Answer to the late one.'), what: 'the late message answered after the restart' });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 2);
    const asked = JSON.stringify(h.fake.requests[1]?.body.messages ?? []);
    assert.match(asked, /arrived during the drain/);
  } finally {
    await h.stop();
  }
});

test('/healthz reports each adapter; a crashing adapter backs off without stopping the others', async () => {
  let attempts = 0;
  const broken: PlatformAdapter = {
    name: 'broken',
    capabilities: { edit: false, threads: false, typing: false, reactions: false, media: false, maxMessageLength: 1000, markup: 'none' },
    start: async (_p: AdapterStartParams) => {
      attempts += 1;
      throw new Error('connection refused by the platform');
    },
    send: async () => ({ messageId: 'x' }),
    edit: async () => undefined,
  };
  const h = await startHarness({ withHttp: true, adapters: [{ adapter: broken, allow: 'all' }] });
  try {
    const address = h.runner.httpAddress;
    assert.ok(address);
    assert.equal(address.host, '127.0.0.1');
    await h.adapter.waitFor({ predicate: () => attempts >= 3, what: 'restarts' });
    const response = await fetch(`http://127.0.0.1:${address.port}/healthz`);
    assert.equal(response.status, 503);
    const body = (await response.json()) as { status: string; adapters: { name: string; state: string; lastError: string | null; restarts: number }[] };
    assert.equal(body.status, 'degraded');
    const test = body.adapters.find((a) => a.name === 'test');
    const bad = body.adapters.find((a) => a.name === 'broken');
    assert.equal(test?.state, 'connected');
    assert.ok(bad && ['backing-off', 'reconnecting'].includes(bad.state), JSON.stringify(bad));
    assert.match(bad.lastError ?? '', /connection refused/);
    assert.ok(bad.restarts >= 2);
    // The healthy adapter still answers.
    h.fake.enqueue({ text: 'still here' });
    await h.adapter.inject({ text: 'ping' });
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown()[0]?.text, 'still here');
    const missing = await fetch(`http://127.0.0.1:${address.port}/nope`);
    assert.equal(missing.status, 404);
  } finally {
    await h.stop();
  }
});

test('a message that was cut short three times is answered with an apology instead of crashing the gateway forever', async () => {
  const h = await startHarness();
  try {
    await h.runner.stop();
    const store = h.readStore();
    try {
      const { row } = store.recordInbound({
        event: {
          platform: 'test',
          messageId: 'poison',
          chat: { id: 'chat-1', kind: 'dm' },
          sender: { id: 'user-1', isBot: false },
          text: 'the message that crashes everything',
          media: [],
          mentioned: true,
          receivedAt: Date.now(),
        },
        sessionKey: 'test:test:chat-1',
      });
      for (let i = 0; i < 3; i++) store.setInboxState({ inboxId: row.id, state: 'processing' });
    } finally {
      store.close();
    }
    await h.restart();
    await h.adapter.waitFor({ predicate: () => h.adapter.shown().length === 1, what: 'the apology' });
    await h.runner.waitIdle();
    assert.match(h.adapter.shown()[0]?.text ?? '', /could not answer this message: the gateway stopped 3 times/);
    assert.equal(h.fake.requests.length, 0);
    const after = h.readStore();
    try {
      assert.equal(after.pendingInbound().length, 0);
    } finally {
      after.close();
    }
  } finally {
    await h.stop();
  }
});
