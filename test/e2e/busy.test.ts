import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startHarness } from '../helpers/harness.js';

const slow = (text: string) => ({ chunks: text.split(/(?<= )/), chunkDelayMs: 120 });

test('policy interrupt: a new message during a turn interrupts it and is answered', async () => {
  const h = await startHarness({ config: { gateway: { busy_policy: 'interrupt' }, stream: { edit_interval: '250ms' } } });
  try {
    h.fake.enqueue(slow('one two three four five six seven eight nine ten eleven twelve'), { text: 'second answer' });
    await h.adapter.inject({ text: 'first' });
    await h.adapter.waitFor({ predicate: () => h.adapter.shown().length === 1, what: 'first reply started' });
    await h.adapter.inject({ text: 'second' });
    await h.runner.waitIdle();
    const shown = h.adapter.shown();
    assert.equal(shown.length, 2);
    assert.match(shown[0]?.text ?? '', /\(stopped\)$/);
    assert.doesNotMatch(shown[0]?.text ?? '', /twelve/);
    assert.equal(shown[1]?.text, 'second answer');
    // The second call's history is valid and includes the interrupted exchange.
    const messages = h.fake.requests[1]?.body.messages ?? [];
    assert.deepEqual(messages.filter((m) => m['role'] === 'user').map((m) => m['content']), ['first', 'second']);
  } finally {
    await h.stop();
  }
});

test('policy queue: a new message waits for the running turn', async () => {
  const h = await startHarness({ config: { gateway: { busy_policy: 'queue' }, stream: { edit_interval: '250ms' } } });
  try {
    h.fake.enqueue(slow('alpha beta gamma delta'), { text: 'second answer' });
    await h.adapter.inject({ text: 'first' });
    await h.adapter.waitFor({ predicate: () => h.adapter.shown().length === 1, what: 'first reply started' });
    await h.adapter.inject({ text: 'second' });
    await h.runner.waitIdle();
    const shown = h.adapter.shown();
    assert.deepEqual(shown.map((m) => m.text), ['alpha beta gamma delta', 'second answer']);
  } finally {
    await h.stop();
  }
});

test('/stop acts mid-turn, and /new starts a fresh session', async () => {
  const h = await startHarness({ config: { stream: { edit_interval: '250ms' } } });
  try {
    h.fake.enqueue({ chunks: ['partial ', 'answer '], hangAfterChunks: 2 });
    await h.adapter.inject({ text: 'write a lot' });
    await h.adapter.waitFor({ predicate: () => (h.adapter.shown()[0]?.text ?? '').includes('answer'), what: 'partial reply' });
    await h.adapter.inject({ text: '/stop' });
    await h.runner.waitIdle();
    const texts = h.adapter.shown().map((m) => m.text);
    assert.ok(texts.includes('Stopped.'), `no Stopped reply in ${JSON.stringify(texts)}`);
    assert.match(texts[0] ?? '', /^partial answer\s*\(stopped\)$/);

    await h.adapter.inject({ text: '/new' });
    const store = h.readStore();
    try {
      const sessions = store.listSessions({ limit: 10 });
      assert.equal(sessions.length, 2);
      assert.equal(sessions.filter((s) => s.endedAt === null).length, 1);
      assert.equal(sessions[0]?.parentSessionId, sessions[1]?.id);
    } finally {
      store.close();
    }
    h.fake.enqueue({ text: 'fresh' });
    await h.adapter.inject({ text: 'hello again' });
    await h.runner.waitIdle();
    const last = h.fake.requests.at(-1)?.body.messages ?? [];
    assert.deepEqual(last.filter((m) => m['role'] === 'user').map((m) => m['content']), ['hello again']);
  } finally {
    await h.stop();
  }
});

test('an unknown slash command gets the command list and never reaches the model; paths are not commands', async () => {
  const h = await startHarness();
  try {
    await h.adapter.inject({ text: '/frobnicate now' });
    await h.runner.waitIdle();
    assert.match(h.adapter.shown()[0]?.text ?? '', /Unknown command \/frobnicate[\s\S]*\/new/);
    assert.equal(h.fake.requests.length, 0);
    h.fake.enqueue({ text: 'that is the hosts file' });
    await h.adapter.inject({ text: '/etc/hosts — what is it?' });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 1);
  } finally {
    await h.stop();
  }
});

test('policy interrupt: of three quick messages only the last is answered; the others stay in the history', async () => {
  const h = await startHarness({ config: { gateway: { busy_policy: 'interrupt' }, stream: { edit_interval: '250ms' } } });
  try {
    h.fake.enqueue(slow('one two three four five six seven eight nine ten'), { text: 'answer to C' });
    await h.adapter.inject({ text: 'A' });
    await h.adapter.waitFor({ predicate: () => h.adapter.shown().length === 1, what: 'A reply started' });
    await h.adapter.inject({ text: 'B' });
    await h.adapter.inject({ text: 'C' });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 2, 'B was superseded before it reached the model');
    assert.deepEqual(h.adapter.shown().map((m) => m.text).slice(1), ['answer to C']);
    const users = (h.fake.requests[1]?.body.messages ?? []).filter((m) => m['role'] === 'user').map((m) => m['content']);
    assert.deepEqual(users, ['A', 'B', 'C']);
  } finally {
    await h.stop();
  }
});
