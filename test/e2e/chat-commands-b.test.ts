import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gateTool } from '../helpers/gate-tool.js';
import { startHarness } from '../helpers/harness.js';
import type { CapturedRequest } from '../fakes/openai/server.js';

/** The request's messages as role + content pairs (tool calls as their names). */
function roles(request: CapturedRequest | undefined): string[] {
  return (request?.body.messages ?? [])
    .filter((m) => m['role'] !== 'system')
    .map((m) => {
      const calls = m['tool_calls'] as { function: { name: string } }[] | undefined;
      return `${String(m['role'])}:${calls ? calls.map((c) => c.function.name).join(',') : String(m['content'])}`;
    });
}

test('/retry: a new model request with the same user text, without the old answer or its tool calls', async () => {
  const h = await startHarness();
  try {
    await h.adapter.inject({ text: '/retry' });
    await h.runner.waitIdle();
    assert.match(h.adapter.shown().at(-1)?.text ?? '', /^Nothing to retry/);
    assert.equal(h.fake.requests.length, 0);

    h.fake.enqueue({ text: 'first answer' });
    await h.adapter.inject({ text: 'what is 2+2?' });
    await h.runner.waitIdle();
    h.fake.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] }, { text: 'old answer' });
    await h.adapter.inject({ text: 'tell me a joke' });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 3);

    h.fake.enqueue({ text: 'new answer' });
    await h.adapter.inject({ text: '/retry' });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 4);
    assert.deepEqual(roles(h.fake.requests[3]), ['user:what is 2+2?', 'assistant:first answer', 'user:tell me a joke']);
    assert.equal(h.adapter.shown().at(-1)?.text, 'new answer');

    // The next turn sees the retried exchange once, with its new answer.
    h.fake.enqueue({ text: 'ok' });
    await h.adapter.inject({ text: 'thanks' });
    await h.runner.waitIdle();
    assert.deepEqual(roles(h.fake.requests[4]), ['user:what is 2+2?', 'assistant:first answer', 'user:tell me a joke', 'assistant:new answer', 'user:thanks']);
  } finally {
    await h.stop();
  }
});

test('/retry while an answer is being written is refused (the answer goes on); /retry cut short by a restart is answered once', async () => {
  const h = await startHarness({ config: { gateway: { drain_timeout: '100ms' }, stream: { edit_interval: '250ms' } } });
  try {
    h.fake.enqueue({ chunks: ['one ', 'two ', 'three'], chunkDelayMs: 150 });
    await h.adapter.inject({ text: 'count' });
    await h.adapter.waitFor({ predicate: () => h.adapter.shown().length === 1, what: 'answer started' });
    await h.adapter.inject({ text: '/retry' });
    await h.runner.waitIdle();
    const texts = h.adapter.shown().map((m) => m.text);
    assert.ok(texts.some((t) => /^An answer is being written: \/stop it first/.test(t)), JSON.stringify(texts));
    assert.equal(texts[0], 'one two three');
    assert.equal(h.fake.requests.length, 1);

    // The retry's answer hangs; the gateway stops (drain timeout) and starts again: the retry runs once more, same text.
    h.fake.enqueue({ chunks: ['par'], hangAfterChunks: 1 }, { text: 'counted again' });
    await h.adapter.inject({ text: '/retry' });
    await h.adapter.waitFor({ predicate: () => h.fake.requests.length === 2, what: 'retry request' });
    await h.restart();
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 3);
    for (const request of h.fake.requests.slice(1)) assert.deepEqual(roles(request), ['user:count']);
    const store = h.readStore();
    try {
      const session = store.activeSession({ key: store.pendingInbound()[0]?.sessionKey ?? 'none' }) ?? store.listSessions({ limit: 1 })[0];
      assert.ok(session);
      const history = store.history({ sessionId: session.id }).map((m) => `${m.role}:${m.content}`);
      assert.deepEqual(history, ['user:count', 'assistant:counted again']);
      assert.equal(store.pendingInbound().length, 0);
    } finally {
      store.close();
    }
  } finally {
    await h.stop();
  }
});

test('/undo drops the last exchange from the next request, and it stays gone after a restart; busy: refused', async () => {
  const h = await startHarness({ config: { stream: { edit_interval: '250ms' } } });
  try {
    await h.adapter.inject({ text: '/undo' });
    await h.runner.waitIdle();
    assert.match(h.adapter.shown().at(-1)?.text ?? '', /^Nothing to undo/);

    h.fake.enqueue({ text: 'answer one' }, { toolCalls: [{ name: 'read_file', arguments: { path: 'x.txt' } }] }, { text: 'answer two' });
    await h.adapter.inject({ text: 'first question' });
    await h.runner.waitIdle();
    await h.adapter.inject({ text: 'second question about a rather long subject that goes on and on for a while' });
    await h.runner.waitIdle();
    await h.adapter.inject({ text: '/undo' });
    await h.runner.waitIdle();
    assert.equal(
      h.adapter.shown().at(-1)?.text,
      'Removed your message “second question about a rather long subject that goes on an…” and what came after it (3 messages) from this conversation.',
    );

    await h.restart();
    h.fake.enqueue({ text: 'fresh' });
    await h.adapter.inject({ text: 'third question' });
    await h.runner.waitIdle();
    assert.deepEqual(roles(h.fake.requests.at(-1)), ['user:first question', 'assistant:answer one', 'user:third question']);
    const store = h.readStore();
    try {
      assert.equal(store.search({ query: 'subject', limit: 5 }).length, 0, 'an undone message is not found by search');
      assert.equal(store.listSessions({ limit: 1 })[0]?.messageCount, 4);
    } finally {
      store.close();
    }

    h.fake.enqueue({ chunks: ['slow ', 'answer'], chunkDelayMs: 150 });
    await h.adapter.inject({ text: 'write slowly' });
    await h.adapter.waitFor({ predicate: () => h.adapter.shown().at(-1)?.text.startsWith('slow') === true, what: 'slow answer' });
    await h.adapter.inject({ text: '/undo' });
    await h.runner.waitIdle();
    assert.ok(h.adapter.shown().some((m) => /^An answer is being written: \/stop it first/.test(m.text)));
    assert.ok(h.adapter.shown().some((m) => m.text === 'slow answer'));
  } finally {
    await h.stop();
  }
});

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

test('/help lists the new commands with their usage', async () => {
  const h = await startHarness();
  try {
    await h.adapter.inject({ text: '/help' });
    await h.runner.waitIdle();
    const help = h.adapter.shown().at(-1)?.text ?? '';
    for (const line of [/^\/retry — /m, /^\/undo — /m, /^\/queue <text> — /m, /^\/steer <text> — /m]) assert.match(help, line);
  } finally {
    await h.stop();
  }
});
