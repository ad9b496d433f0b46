import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fallbackNote } from '../../src/agent/compress/index.js';
import type { CapturedRequest } from '../fakes/openai/server.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { say } from '../helpers/converse.js';

/** The text of every message of a request, joined. */
function textOf(request: CapturedRequest): string {
  return (request.body.messages ?? []).map((m) => (typeof m['content'] === 'string' ? m['content'] : '')).join('\n');
}

/**
 * A gateway on a fake model with model.context_length 4034 (known at once, unlike the endpoint's): ten turns stay
 * under its threshold with the system prompt and the built-in tool schemas (~2.5k tokens: a new built-in tool adds its
 * schema's tokens to every request, and these context lengths grow by as much).
 */
async function smallContext(params: { tailRatio?: number } = {}): Promise<Harness> {
  // Edits 20 ms apart: these tests run up to 24 turns each and measure context, not edit pacing.
  return startHarness({ editIntervalMs: 20, config: { model: { context_length: 4034 }, ...(params.tailRatio !== undefined ? { compression: { tail_ratio: params.tailRatio } } : {}) } });
}

test('a context-overflow 400 compresses (summary, new session) and retries the call once', async () => {
  const h = await smallContext();
  try {
    h.fake.setResponder((req) => (req.body.stream === true ? { text: 'ok, noted.' } : { text: 'The user listed six items.' }));
    for (let i = 1; i <= 10; i += 1) await say(h, `item ${i}: ` + 'a fairly long description of the item. '.repeat(8));
    const before = h.fake.requests.length;
    h.fake.enqueue({ status: 400, errorCode: 'context_length_exceeded', errorMessage: "This model's maximum context length is 4000 tokens." });
    const reply = await say(h, 'what did I list?');
    assert.match(reply, /ok, noted\./);
    const after = h.fake.requests.slice(before);
    assert.deepEqual(after.map((r) => r.body.stream === true), [true, false, true], 'the failed call, the summary, one retry');
    assert.match(textOf(after[2] as CapturedRequest), /The user listed six items\./, 'the retry carries the summary');
    const store = h.readStore();
    try {
      const sessions = store.listSessions({ limit: 10 });
      assert.equal(sessions.length, 2);
      assert.ok(sessions.some((s) => s.parentSessionId !== null), 'the conversation went on in a child session');
    } finally {
      store.close();
    }
  } finally {
    await h.stop();
  }
});

test('a context-overflow 400 after the retry ends the turn with the error (no loop)', async () => {
  const h = await smallContext();
  try {
    h.fake.setResponder((req) => (req.body.stream === true ? { status: 400, errorCode: 'context_length_exceeded', errorMessage: 'maximum context length exceeded' } : { text: 'summary' }));
    await say(h, 'hello');
    const chats = h.fake.requests.filter((r) => r.body.stream === true);
    assert.equal(chats.length, 2, 'the call and exactly one retry');
  } finally {
    await h.stop();
  }
});

test('a summary model answering 500 gives the fallback note and the conversation goes on', async () => {
  const h = await smallContext();
  try {
    h.fake.setResponder((req) => (req.body.stream === true ? { text: 'fine.' } : { status: 500, errorMessage: 'summary model down' }));
    for (let i = 1; i <= 24; i += 1) {
      const reply = await say(h, `turn ${i}: ` + 'some words about the plan we are making. '.repeat(8));
      assert.match(reply, /fine\./, `turn ${i} answered`);
    }
    assert.ok(h.fake.requests.some((r) => r.body.stream !== true), 'a summary was asked for');
    const last = h.fake.requests.filter((r) => r.body.stream === true).at(-1);
    assert.ok(last && textOf(last).includes(fallbackNote), 'the fallback note stands in for the middle');
  } finally {
    await h.stop();
  }
});

test('/compress compresses on demand: tokens before and after, the new session id; a short chat has nothing to compress', async () => {
  // A tail of 0.1 × the threshold, so ten short turns have a middle to summarise.
  const h = await smallContext({ tailRatio: 0.1 });
  try {
    h.fake.setResponder((req) => (req.body.stream === true ? { text: 'ok.' } : { text: 'The user described ten items.' }));
    const short = await say(h, '/compress');
    assert.match(short, /^Nothing to compress: this chat has no conversation yet\.$/);
    for (let i = 1; i <= 10; i += 1) await say(h, `item ${i}: ` + 'a fairly long description of the item. '.repeat(8));
    const reply = await say(h, '/compress');
    const match = /^Compressed: ~([\d,]+) → ~([\d,]+) tokens\. The conversation goes on in a new session \(([^)]+)\)/.exec(reply);
    assert.ok(match, reply);
    assert.ok(Number(match[2]?.replace(/,/g, '')) < Number(match[1]?.replace(/,/g, '')), 'fewer tokens after');
    const store = h.readStore();
    try {
      const active = store.activeSession({ key: store.listSessions({ limit: 10 })[0]?.key ?? '' });
      assert.ok(active && active.parentSessionId !== null, 'the chat goes on in a child session');
      assert.ok(active.id.startsWith(match[3] ?? '?') || active.id.includes(match[3] ?? '?'), 'the reply names the new session');
      assert.ok(store.history({ sessionId: active.id }).some((m) => m.content.includes('The user described ten items.')), 'the summary is in the new session');
    } finally {
      store.close();
    }
    const next = await say(h, 'go on');
    assert.match(next, /ok\./);
    assert.match(textOf(h.fake.requests.at(-1) as CapturedRequest), /The user described ten items\./, 'the next turn starts from the summary');
  } finally {
    await h.stop();
  }
});

test('a compression rebuilds the system prompt: a memory written during the old session is in the new session prompt', async () => {
  const h = await smallContext();
  try {
    h.fake.setResponder((req) => (req.body.stream === true ? { text: 'ok.' } : { text: 'The user listed items.' }));
    for (let i = 1; i <= 10; i += 1) await say(h, `item ${i}: ` + 'a fairly long description of the item. '.repeat(8));
    // The memory tool writes MEMORY.md at once; the running session keeps its frozen snapshot.
    mkdirSync(h.profile.memoriesDir, { recursive: true });
    writeFileSync(path.join(h.profile.memoriesDir, 'MEMORY.md'), 'The owner prefers the metric system (ZEBRA-41).');
    await say(h, 'one more');
    const system = (r: CapturedRequest | undefined): string => String(r?.body.messages?.[0]?.['content'] ?? '');
    assert.doesNotMatch(system(h.fake.requests.at(-1)), /ZEBRA-41/, 'the old session keeps its frozen snapshot');
    assert.match(await say(h, '/compress'), /^Compressed:/);
    await say(h, 'go on');
    assert.match(system(h.fake.requests.at(-1)), /ZEBRA-41/, "the new session's prompt holds the fresh memory snapshot");
  } finally {
    await h.stop();
  }
});
