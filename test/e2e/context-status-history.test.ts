import assert from 'node:assert/strict';
import { test } from 'node:test';
import { estimatePromptTokens } from '../../src/agent/tokens/estimate.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { until } from '../helpers/converse.js';

// Its own file: the token meter is process-wide, and usage reported in another test would correct its estimates.

/** Sends /status and returns its reply. */
async function status(h: Harness): Promise<string> {
  const before = h.adapter.shown().length;
  await h.adapter.inject({ text: '/status' });
  await until(() => h.adapter.shown().length > before, 'the /status reply');
  return h.adapter.shown().at(-1)?.text ?? '';
}

test("/status estimates the history the next request sends: the whole session, not a character or message-count window", async () => {
  // A large context: 480 stored messages (~290,000 characters) stay under the threshold, so nothing compresses.
  const h = await startHarness({ config: { model: { context_length: 1_000_000 } } });
  try {
    h.fake.reportUsage = false;
    h.fake.enqueue({ text: 'first answer' });
    await h.adapter.inject({ text: 'first question' });
    await h.runner.waitIdle();
    await until(() => h.adapter.shown().some((m) => m.text.includes('first answer')), 'the first reply');
    const store = h.readStore();
    try {
      const session = store.listSessions({ limit: 1 })[0];
      assert.ok(session);
      for (let i = 0; i < 240; i += 1) {
        store.appendMessage({ sessionId: session.id, role: 'user', content: `question ${i} ` + 'lorem ipsum dolor sit amet '.repeat(22) });
        store.appendMessage({ sessionId: session.id, role: 'assistant', content: `answer ${i} ` + 'consectetur adipiscing elit '.repeat(22) });
      }
    } finally {
      store.close();
    }
    const text = await status(h);
    const match = /^Context: ~([\d,]+) \/ 1,000,000 tokens \((\d+)%\), estimated \(no usage reported yet\)$/m.exec(text);
    assert.ok(match?.[1], text);
    const shown = Number(match[1].replace(/,/g, ''));

    const from = h.fake.requests.length;
    h.fake.enqueue({ text: 'ok' });
    await h.adapter.inject({ text: 'ok?' });
    await h.runner.waitIdle();
    await until(() => h.fake.requests.length > from, 'the next request');
    const next = h.fake.requests[from];
    assert.ok(next);
    const messages = next.body.messages ?? [];
    assert.ok(messages.some((m) => String(m['content']).startsWith('first question')), 'the next request holds the whole session, its first exchange included');
    const sent = estimatePromptTokens({ request: { model: 'fake-model', messages: messages as never, tools: (next.body.tools ?? []) as never } });
    // The next request adds only the new short user message (and any per-call block) to what /status estimated.
    assert.ok(sent >= shown && sent - shown < 60, `/status said ~${shown} tokens, the next request has ~${sent}`);
  } finally {
    await h.stop();
  }
});
