import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startHarness } from '../helpers/harness.js';
import { say } from '../helpers/converse.js';
import { roles } from '../helpers/request-roles.js';

test('/retry: a new model request with the same user text, without the old answer or its tool calls', async () => {
  const h = await startHarness({ config: { stream: { edit_interval: '250ms' } } });
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

test('an undone exchange does not come back through a compression: not in the summary request, the new session, or the next turn', async () => {
  const h = await startHarness({ config: { model: { context_length: 5550 }, compression: { tail_ratio: 0.1 }, stream: { edit_interval: '250ms' } } });
  try {
    h.fake.setResponder((req) => (req.body.stream === true ? { text: 'ok.' } : { text: 'The user described ten items.' }));
    for (let i = 1; i <= 10; i += 1) await say(h, `item ${i}: ` + 'a fairly long description of the item. '.repeat(8));
    await say(h, 'the codeword is zebraphant');
    assert.match(await say(h, '/undo'), /^Removed your message “the codeword is zebraphant”/);
    assert.match(await say(h, '/compress'), /^Compressed:/);
    await say(h, 'go on');
    const undoneAt = h.fake.requests.findIndex((r) => JSON.stringify(r.body.messages).includes('zebraphant'));
    assert.ok(undoneAt >= 0);
    for (const request of h.fake.requests.slice(undoneAt + 1)) assert.doesNotMatch(JSON.stringify(request.body.messages), /zebraphant/);
    assert.ok(h.fake.requests.slice(undoneAt + 1).some((r) => r.body.stream !== true), 'a summary request was made');
    const store = h.readStore();
    try {
      const active = store.activeSession({ key: store.listSessions({ limit: 1 })[0]?.key ?? '' });
      assert.ok(active && active.parentSessionId !== null);
      assert.ok(!store.history({ sessionId: active.id }).some((m) => m.content.includes('zebraphant')));
    } finally {
      store.close();
    }
    // An exchange a compression copied into the new session's tail: /undo hides the copy and the ended session's original.
    for (let i = 11; i <= 16; i += 1) await say(h, `item ${i}: ` + 'a fairly long description of the item. '.repeat(8));
    await say(h, 'the hint is quokkaberry');
    assert.match(await say(h, '/compress'), /^Compressed:/);
    assert.match(await say(h, '/undo'), /^Removed your message “the hint is quokkaberry”/);
    await say(h, 'next');
    assert.doesNotMatch(JSON.stringify(h.fake.requests.at(-1)?.body.messages), /quokkaberry/);
    const after = h.readStore();
    try {
      assert.deepEqual(after.search({ query: 'quokkaberry', limit: 5 }), [], 'neither the copy nor the original is found');
      assert.deepEqual(after.search({ query: 'zebraphant', limit: 5 }), []);
    } finally {
      after.close();
    }
  } finally {
    await h.stop();
  }
});
