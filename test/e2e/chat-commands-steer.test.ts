import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gateTool } from '../helpers/gate-tool.js';
import { startHarness } from '../helpers/harness.js';
import { roles } from '../helpers/request-roles.js';

test('/queue x during a running turn (policy interrupt) does not abort it, and x is the next turn', async () => {
  const h = await startHarness({ config: { gateway: { busy_policy: 'interrupt' }, stream: { edit_interval: '250ms' } } });
  try {
    h.fake.enqueue({ chunks: ['alpha ', 'beta ', 'gamma'], chunkDelayMs: 150 }, { text: 'queued answer' });
    await h.adapter.inject({ text: 'first' });
    await h.adapter.waitFor({ predicate: () => h.adapter.shown().length === 1, what: 'first reply started' });
    await h.adapter.inject({ text: '/queue and then this' });
    // A plain message under policy interrupt still interrupts, but never supersedes the queued one.
    await h.runner.waitIdle();
    assert.deepEqual(h.adapter.shown().map((m) => m.text), ['alpha beta gamma', 'queued answer']);
    assert.deepEqual(roles(h.fake.requests[1]), ['user:first', 'assistant:alpha beta gamma', 'user:and then this']);

    await h.adapter.inject({ text: '/queue' });
    await h.runner.waitIdle();
    assert.match(h.adapter.shown().at(-1)?.text ?? '', /^Usage: \/queue <text>/);
    assert.equal(h.fake.requests.length, 2);
  } finally {
    await h.stop();
  }
});

/** A turn held at a tool call between two model calls: `/steer` (or a plain message with policy steer) joins the second. */
async function steerCase(params: { policy: 'interrupt' | 'steer'; text: string }): Promise<void> {
  const gate = gateTool();
  const h = await startHarness({ extraTools: [gate.tool], config: { gateway: { busy_policy: params.policy }, stream: { edit_interval: '250ms' } } });
  try {
    h.fake.enqueue({ toolCalls: [{ name: 'probe_gate', arguments: {} }] }, { text: 'done, in French' });
    await h.adapter.inject({ text: 'summarise the report' });
    await h.adapter.waitFor({ predicate: gate.entered, what: 'tool running' });
    await h.adapter.inject({ text: params.text });
    gate.open();
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 2, 'one turn, two model calls: the steer started no turn of its own');
    assert.deepEqual(roles(h.fake.requests[1]), ['user:summarise the report', 'assistant:probe_gate', 'tool:gate opened', 'user:in French please']);
    assert.deepEqual(h.adapter.shown().map((m) => m.text), ['done, in French'], 'not aborted');
    const store = h.readStore();
    try {
      const session = store.listSessions({ limit: 1 })[0];
      assert.ok(session);
      assert.deepEqual(
        store.history({ sessionId: session.id }).map((m) => `${m.role}:${m.content}`),
        ['user:summarise the report', 'assistant:', 'tool:gate opened', 'user:in French please', 'assistant:done, in French'],
      );
      assert.equal(store.pendingInbound().length, 0, 'the steered message is done with its turn');
    } finally {
      store.close();
    }
  } finally {
    gate.open();
    await h.stop();
  }
}

test('/steer x during a turn with a tool call between model calls: x is in the next model call, the turn is not aborted', async () => {
  await steerCase({ policy: 'interrupt', text: '/steer in French please' });
});

test('busy_policy steer: a plain message during a running turn steers it', async () => {
  await steerCase({ policy: 'steer', text: 'in French please' });
});

test('/steer with no turn running is an ordinary message; steered text the turn ended before reading becomes the next turn', async () => {
  const h = await startHarness({ config: { gateway: { busy_policy: 'steer' }, stream: { edit_interval: '250ms' } } });
  try {
    h.fake.enqueue({ text: 'plain' });
    await h.adapter.inject({ text: '/steer hello there' });
    await h.runner.waitIdle();
    assert.deepEqual(roles(h.fake.requests[0]), ['user:hello there']);
    const store = h.readStore();
    try {
      assert.equal(store.listSessions({ limit: 1 })[0]?.title, 'hello there', 'the title is the text, not the command');
    } finally {
      store.close();
    }

    // One model call only (no tool): a message steered in while it streams comes too late for it, so it is answered next.
    h.fake.enqueue({ chunks: ['one ', 'two'], chunkDelayMs: 150 }, { text: 'late answer' });
    await h.adapter.inject({ text: 'count' });
    await h.adapter.waitFor({ predicate: () => h.adapter.shown().length === 2, what: 'second answer started' });
    await h.adapter.inject({ text: 'and three' });
    await h.runner.waitIdle();
    assert.deepEqual(h.adapter.shown().map((m) => m.text), ['plain', 'one two', 'late answer']);
    assert.deepEqual(roles(h.fake.requests[2]).slice(-3), ['user:count', 'assistant:one two', 'user:and three']);
  } finally {
    await h.stop();
  }
});

test('a restart while a steered turn runs: the turn is answered again and the steered text as its own turn, each once', async () => {
  const gate = gateTool();
  const h = await startHarness({ extraTools: [gate.tool], config: { gateway: { drain_timeout: '100ms' }, stream: { edit_interval: '250ms' } } });
  try {
    h.fake.enqueue({ toolCalls: [{ name: 'probe_gate', arguments: {} }] }, { chunks: ['work'], hangAfterChunks: 1 });
    await h.adapter.inject({ text: 'do the thing' });
    await h.adapter.waitFor({ predicate: gate.entered, what: 'tool running' });
    await h.adapter.inject({ text: '/steer carefully' });
    gate.open();
    await h.adapter.waitFor({ predicate: () => h.fake.requests.length === 2, what: 'the steered model call' });
    assert.deepEqual(roles(h.fake.requests[1]).at(-1), 'user:carefully');
    h.fake.enqueue({ text: 'thing done' }, { text: 'noted, carefully' });
    await h.restart();
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 4);
    assert.deepEqual(roles(h.fake.requests[2]), ['user:do the thing']);
    assert.deepEqual(roles(h.fake.requests[3]), ['user:do the thing', 'assistant:thing done', 'user:carefully']);
    const store = h.readStore();
    try {
      assert.equal(store.pendingInbound().length, 0);
    } finally {
      store.close();
    }
  } finally {
    gate.open();
    await h.stop();
  }
});
