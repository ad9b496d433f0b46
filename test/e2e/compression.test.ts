import assert from 'node:assert/strict';
import { test } from 'node:test';
import { estimatePromptTokens } from '../../src/agent/tokens/estimate.js';
import type { CapturedRequest } from '../fakes/openai/server.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { until } from '../helpers/converse.js';

/** The text of every message of a request, joined. */
function textOf(request: CapturedRequest): string {
  return (request.body.messages ?? []).map((m) => (typeof m['content'] === 'string' ? m['content'] : '')).join('\n');
}

/**
 * A gateway on a fake model whose /models says context_length 4950 (tuned to the ~3k-token fixed part: system prompt
 * and tool schemas). Edits 20 ms apart: the test runs 40 turns and measures context, not edit pacing.
 */
async function smallContext(): Promise<Harness> {
  const h = await startHarness({ editIntervalMs: 20 });
  h.fake.modelMetadata = { 'fake-model': { context_length: 4950 } };
  await h.restart();
  await until(() => h.fake.modelListings.length > 0, 'the /models lookup');
  return h;
}

/** One turn of filler text (about 150 tokens). */
function filler(turn: number): string {
  return `Turn ${turn}: ` + `please keep track of item ${turn} in the inventory list we are building together. `.repeat(8);
}

/** Chat turns `from`..`to` (filler text unless `text` is given), each answered before the next. */
async function converse(h: Harness, params: { from: number; to: number; text?: string }): Promise<void> {
  for (let turn = params.from; turn <= params.to; turn += 1) {
    const before = h.adapter.shown().length;
    await h.adapter.inject({ text: params.text ?? (turn === 1 ? 'Remember this: the code word is PELICAN-7. ' + filler(1) : filler(turn)) });
    await h.runner.waitIdle();
    await until(() => h.adapter.shown().length > before, `the reply to turn ${turn}`);
  }
}

test('a 40-turn conversation on a 4950-token model compresses into a chain of sessions and keeps the first fact', async () => {
  const h = await smallContext();
  try {
    h.fake.setResponder((req) => {
      if (req.body.stream !== true) {
        // The summary request: carry the code word forward and keep what an earlier summary said.
        const previous = /PELICAN-7/.test(textOf(req)) ? 'The user said the code word is PELICAN-7.' : '';
        return { text: `${previous} Summary ${h.fake.requests.filter((r) => r.body.stream !== true).length}: inventory items were discussed.` };
      }
      const messages = req.body.messages ?? [];
      const lastUser = [...messages].reverse().find((m) => m['role'] === 'user');
      const asked = typeof lastUser?.['content'] === 'string' && lastUser['content'].includes('Look up the code word');
      if (asked && messages.at(-1)?.['role'] !== 'tool') return { toolCalls: [{ name: 'session_search', arguments: { query: 'PELICAN code word' } }] };
      return { text: 'Noted. ' + 'I keep the inventory item in mind. '.repeat(4) };
    });
    await converse(h, { from: 1, to: 40 });

    const store = h.readStore();
    try {
      const sessions = store.listSessions({ limit: 100 });
      assert.ok(sessions.length >= 3, `compressed more than once (${sessions.length} sessions)`);
      const byId = new Map(sessions.map((s) => [s.id, s]));
      const roots = sessions.filter((s) => s.parentSessionId === null);
      assert.equal(roots.length, 1, 'one first session; every other one has a parent');
      for (const s of sessions) if (s.parentSessionId !== null) assert.ok(byId.has(s.parentSessionId), 'the parent is stored');
      const active = store.activeSession({ key: sessions[0]?.key ?? '' });
      assert.ok(active, 'an active session');
      let depth = 0;
      for (let s = byId.get(active.id); s?.parentSessionId; s = byId.get(s.parentSessionId)) depth += 1;
      assert.equal(depth, sessions.length - 1, 'a single chain: each new session points at the previous one');
    } finally {
      store.close();
    }

    const chats = h.fake.requests.filter((r) => r.body.stream === true);
    const last = chats.at(-1);
    assert.ok(last && textOf(last).includes('PELICAN-7'), 'the code word from turn 1 is still in the context at turn 40');
    for (const request of chats) {
      const tokens = estimatePromptTokens({ request: { model: 'fake-model', messages: (request.body.messages ?? []) as never, tools: (request.body.tools ?? []) as never } });
      assert.ok(tokens <= 4950, `a request of ~${tokens} tokens exceeds the context length`);
      const called = new Set<string>();
      for (const m of request.body.messages ?? []) {
        const calls = m['tool_calls'];
        if (Array.isArray(calls)) for (const c of calls as { id: string }[]) called.add(c.id);
        if (m['role'] === 'tool') assert.ok(called.has(String(m['tool_call_id'])), 'no tool result without its tool call');
      }
    }
    // session_search still finds turn 1's raw text in the first session of the chain.
    const searchFrom = h.fake.requests.length;
    await converse(h, { from: 41, to: 41, text: 'Look up the code word I gave you in turn 1.' });
    const toolResult = h.fake.requests
      .slice(searchFrom)
      .flatMap((r) => r.body.messages ?? [])
      .find((m) => m['role'] === 'tool' && String(m['content']).includes('session'));
    assert.ok(toolResult, 'the model got the session_search result');
    assert.match(String(toolResult['content']), /Remember this: the code word is PELICAN-7/, "turn 1's raw text is found");

    const summaries = h.fake.requests.filter((r) => r.body.stream !== true);
    assert.ok(summaries.length >= 2, 'two summary requests');
    assert.match(textOf(summaries[1] as CapturedRequest), /Summary 1: inventory items were discussed/, 'the second summary request updates the first summary');
  } finally {
    await h.stop();
  }
});
