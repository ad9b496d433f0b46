import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { estimatePromptTokens } from '../../src/agent/tokens/estimate.js';
import { defineTool } from '../../src/tools/tool.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { say, until } from '../helpers/converse.js';

// Its own file: the token meter is process-wide; no test here reports usage, so estimates stay uncorrected.

/** A tool whose result is `words` words long (the schema is the same whatever the size). */
function tickTool(words: number): ReturnType<typeof defineTool> {
  return defineTool({ name: 'tick', description: 'counts', input: z.object({}), parallel: 'safe', handler: async () => 'tick ok ' + 'counted '.repeat(words) });
}
const tick = tickTool(0);

/** The estimated tokens of the fixed part of a request (system prompt + tool schemas) on this harness's setup. */
async function fixedTokens(): Promise<number> {
  const h = await startHarness({ config: { model: { context_length: 1_000_000 }, toolsets: ['all'] }, extraTools: [tick] });
  try {
    h.fake.reportUsage = false;
    await say(h, 'hi');
    const request = h.fake.requests.find((r) => r.body.stream === true);
    assert.ok(request);
    return estimatePromptTokens({ request: { model: 'fake-model', messages: (request.body.messages ?? []).slice(0, 1) as never, tools: (request.body.tools ?? []) as never } });
  } finally {
    await h.stop();
  }
}

test('a context length the system prompt and tools alone do not fit: a clear note, no model call, no compression', async () => {
  const fixed = await fixedTokens();
  const h = await startHarness({ config: { model: { context_length: Math.floor(fixed * 0.9) }, toolsets: ['all'] }, extraTools: [tick] });
  try {
    h.fake.reportUsage = false;
    const reply = await say(h, 'hello there');
    assert.match(reply, /system prompt and tool definitions alone take ~[\d,]+ tokens, more than its context length/);
    assert.equal(h.fake.requests.length, 0, 'neither a chat request nor a summary request was sent');
    const again = await say(h, 'and again');
    assert.match(again, /context length/);
    assert.equal(h.fake.requests.length, 0);
    const store = h.readStore();
    try {
      assert.equal(store.listSessions({ limit: 10 }).length, 1, 'no chain of sessions');
    } finally {
      store.close();
    }
  } finally {
    await h.stop();
  }
});

test('when the fixed part alone passes the threshold, a compression that cannot get under it is not retried before every model call', async () => {
  const fixed = await fixedTokens();
  // threshold 0.5 × 1.6 × fixed = 0.8 × fixed: every request is above it; the context itself has room.
  // Each tool result is about a twentieth of the fixed part: every round pushes older ones out of a tail sized on
  // the plain threshold (0.8 × fixed), so an unreachable target meant a summary before every model call.
  const h = await startHarness({ config: { model: { context_length: Math.floor(fixed * 1.6) }, toolsets: ['all'] }, extraTools: [tickTool(Math.floor(fixed / 20))] });
  try {
    h.fake.reportUsage = false;
    let round = 0;
    let counting = false;
    h.fake.setResponder((req) => {
      if (req.body.stream !== true) return { text: 'Summary: small talk so far.' };
      // The turn's own request may itself be summarised mid-turn: the rounds are counted here, not read from it.
      if (counting && round < 5) {
        round += 1;
        return { toolCalls: [{ name: 'tick', arguments: {} }] };
      }
      return { text: 'Fine.' };
    });
    for (let i = 1; i <= 3; i += 1) await say(h, `Small talk ${i}: how are things going today?`);
    const from = h.fake.requests.length;
    counting = true;
    const reply = await say(h, 'Please count five times with the tick tool.');
    assert.match(reply, /Fine\./, 'the turn is answered');
    const during = h.fake.requests.slice(from);
    assert.equal(during.filter((r) => r.body.stream === true).length, 6, 'five tool rounds and the answer');
    const summaries = during.filter((r) => r.body.stream !== true).length;
    // Before the fix: a summary before nearly every one of the six model calls (4 or 5); now the history must grow
    // by a real share of the room left before it is summarised again.
    assert.ok(summaries <= 2, `not a summary per model call (${summaries})`);
    for (const r of during.filter((q) => q.body.stream === true)) {
      const tokens = estimatePromptTokens({ request: { model: 'fake-model', messages: (r.body.messages ?? []) as never, tools: (r.body.tools ?? []) as never } });
      assert.ok(tokens <= Math.floor(fixed * 1.6), `a request of ~${tokens} tokens exceeds the context length`);
    }
  } finally {
    await h.stop();
  }
});
