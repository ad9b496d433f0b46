import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { CapturedRequest } from '../fakes/openai/server.js';
import { startHarness } from '../helpers/harness.js';

/** The system message (first message) of a captured request. */
function systemOf(request: CapturedRequest | undefined): string {
  const first = request?.body.messages?.[0];
  assert.equal(first?.['role'], 'system');
  return String(first?.['content']);
}

test('within a session the system message is byte-identical across 3 turns, even after a `memory` add in turn 1; /new gets the new entry', async () => {
  const h = await startHarness();
  try {
    const memoryFile = path.join(h.profile.memoriesDir, 'MEMORY.md');
    writeFileSync(memoryFile, 'The owner is called Ada.');
    // Turn 1: the scripted model calls the real memory tool (through the real openai SDK), then answers.
    h.fake.enqueue({ toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'memory', content: 'Ada drinks green tea.' } }] }, { text: 'Noted.' });
    await h.adapter.inject({ text: 'remember that I drink green tea' });
    await h.runner.waitIdle();
    assert.equal(readFileSync(memoryFile, 'utf8'), 'The owner is called Ada.\n§\nAda drinks green tea.');
    const toolResult = (h.fake.requests[1]?.body.messages ?? []).find((m) => m['role'] === 'tool');
    assert.match(String(toolResult?.['content']), /next session/);
    for (const reply of ['second', 'third']) {
      h.fake.enqueue({ text: reply });
      await h.adapter.inject({ text: `turn ${reply}` });
      await h.runner.waitIdle();
    }
    assert.equal(h.fake.requests.length, 4, 'three turns: two model calls in the first, one in each other');
    const first = systemOf(h.fake.requests[0]);
    for (const request of h.fake.requests) assert.equal(systemOf(request), first, 'the system message changed within the session');
    assert.match(first, /The owner is called Ada\./);
    assert.doesNotMatch(first, /green tea/);
    // The agent is told when to use its memory and session_search tools (both are offered).
    assert.match(first, /# Memory\n/);
    assert.match(first, /# Earlier conversations\n/);
    const store = h.readStore();
    try {
      const [session] = store.listSessions({ limit: 1 });
      assert.ok(session);
      assert.equal(store.sessionPrompt({ sessionId: session.id })?.text, first);
    } finally {
      store.close();
    }

    await h.adapter.inject({ text: '/new' });
    await h.runner.waitIdle();
    h.fake.enqueue({ text: 'fresh start' });
    await h.adapter.inject({ text: 'what do I drink?' });
    await h.runner.waitIdle();
    const fresh = systemOf(h.fake.requests.at(-1));
    assert.match(fresh, /The owner is called Ada\.\n§\nAda drinks green tea\./);
    assert.notEqual(fresh, first);
  } finally {
    await h.stop();
  }
});

test('agent.current_time: call adds a "Current time" system message after the history on each model call, never stored', async () => {
  const h = await startHarness({ config: { timezone: 'Asia/Tokyo', agent: { current_time: 'call' } } });
  try {
    h.fake.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] }, { text: 'done' });
    await h.adapter.inject({ text: 'what time is it?' });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 2);
    for (const request of h.fake.requests) {
      const messages = request.body.messages ?? [];
      const last = messages.at(-1);
      assert.equal(last?.['role'], 'system');
      assert.match(String(last?.['content']), /^Current time: .+ \(Asia\/Tokyo, GMT\+09:00\)$/);
      assert.doesNotMatch(systemOf(request), /Current time:/);
    }
    assert.equal(systemOf(h.fake.requests[0]), systemOf(h.fake.requests[1]));
    // The history sent before the block is the conversation itself (the tool result is in the second call).
    const second = h.fake.requests[1]?.body.messages ?? [];
    assert.equal(second.at(-2)?.['role'], 'tool');
    const store = h.readStore();
    try {
      const [session] = store.listSessions({ limit: 1 });
      assert.ok(session);
      assert.deepEqual(store.history({ sessionId: session.id }).filter((m) => m.role === 'system'), []);
      assert.doesNotMatch(store.sessionPrompt({ sessionId: session.id })?.text ?? '', /Current time:/);
    } finally {
      store.close();
    }
  } finally {
    await h.stop();
  }
});
