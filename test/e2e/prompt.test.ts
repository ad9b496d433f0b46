import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
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
  const h = await startHarness({ editIntervalMs: 20 });
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
  const h = await startHarness({ editIntervalMs: 20, config: { timezone: 'Asia/Tokyo', agent: { current_time: 'call' } } });
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

test('a turn cut short by a shutdown is replayed with the same stored system prompt, though SOUL.md and MEMORY.md changed meanwhile', { timeout: 30_000 }, async () => {
  const h = await startHarness({ config: { gateway: { drain_timeout: '300ms' } } });
  try {
    writeFileSync(path.join(h.profile.memoriesDir, 'MEMORY.md'), 'Old fact.');
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    // The first attempt streams slowly and is interrupted by the stop; the replay answers at once.
    h.fake.enqueue({ chunks: words.map((w, i) => (i ? ` ${w}` : w)), chunkDelayMs: 50 }, { text: words.join(' ') });
    await h.adapter.inject({ text: 'count' });
    const deadline = Date.now() + 10_000;
    while (h.fake.requests.length === 0) {
      assert.ok(Date.now() < deadline, 'the model was never called');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    writeFileSync(h.profile.soulPath, 'You are a different assistant now.');
    writeFileSync(path.join(h.profile.memoriesDir, 'MEMORY.md'), 'New fact.');
    await h.restart();
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 2, 'the cut-short turn was not replayed');
    const first = systemOf(h.fake.requests[0]);
    assert.equal(systemOf(h.fake.requests[1]), first);
    assert.match(first, /Old fact\./);
    assert.doesNotMatch(first, /New fact|different assistant/);
  } finally {
    await h.stop();
  }
});

test('a session from before the upgrade (no stored prompt) gets one at its next turn, stored and reused', async () => {
  const h = await startHarness({ editIntervalMs: 20 });
  try {
    h.fake.enqueue({ text: 'one' });
    await h.adapter.inject({ text: 'hello' });
    await h.runner.waitIdle();
    const store = h.readStore();
    let sessionId = '';
    try {
      const [session] = store.listSessions({ limit: 1 });
      assert.ok(session);
      sessionId = session.id;
    } finally {
      store.close();
    }
    // What a database migrated from before prompts were stored holds: the session without its prompt.
    const db = new Database(h.profile.dbPath);
    try {
      db.prepare('UPDATE sessions SET prompt_id = NULL WHERE id = ?').run(sessionId);
    } finally {
      db.close();
    }
    writeFileSync(path.join(h.profile.memoriesDir, 'MEMORY.md'), 'Fact written before the next turn.');
    for (const reply of ['two', 'three']) {
      h.fake.enqueue({ text: reply });
      await h.adapter.inject({ text: reply });
      await h.runner.waitIdle();
    }
    const rebuilt = systemOf(h.fake.requests[1]);
    assert.match(rebuilt, /Fact written before the next turn\./);
    assert.equal(systemOf(h.fake.requests[2]), rebuilt);
    const again = h.readStore();
    try {
      assert.equal(again.sessionPrompt({ sessionId })?.text, rebuilt);
      assert.equal(again.listSessions({ limit: 5 }).length, 1, 'the old session went on');
    } finally {
      again.close();
    }
  } finally {
    await h.stop();
  }
});
