import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startHarness, type Harness } from '../helpers/harness.js';
import { until } from '../helpers/converse.js';

/** Sends /status and returns its reply. */
async function status(h: Harness): Promise<string> {
  const before = h.adapter.shown().length;
  await h.adapter.inject({ text: '/status' });
  await until(() => h.adapter.shown().length > before, 'the /status reply');
  return h.adapter.shown().at(-1)?.text ?? '';
}

test("/status: the last call's reported prompt tokens vs the context length from the endpoint's /models", async () => {
  const h = await startHarness();
  try {
    // Well above the fixed part (system prompt and tool schemas, ~3.6k tokens): with less, no model call is made at all.
    h.fake.modelMetadata = { 'fake-model': { context_length: 10000 } };
    // The context length is resolved at start (in the background): a restart picks up the metadata set above.
    await h.restart();
    await until(() => h.fake.modelListings.length > 0, 'the /models lookup');
    h.fake.enqueue({ text: 'hello', usage: { prompt_tokens: 1000, completion_tokens: 3 } });
    await h.adapter.inject({ text: 'hi' });
    await h.runner.waitIdle();
    let text = await status(h);
    for (let i = 0; i < 50 && !text.includes('/ 10,000'); i += 1) text = await status(h);
    assert.match(text, /^Context: ~1,000 \/ 10,000 tokens \(10%\)$/m);

    // A new session has no reported usage: the estimate of its next request (tools included), marked as such.
    await h.adapter.inject({ text: '/new' });
    await until(() => h.adapter.shown().at(-1)?.text.startsWith('Started a new conversation') === true, 'the /new reply');
    const fresh = await status(h);
    const match = /^Context: ~([\d,]+) \/ 10,000 tokens \((\d+)%\), estimated \(no usage reported yet\)$/m.exec(fresh);
    assert.ok(match?.[1], fresh);
    assert.ok(Number(match[1].replace(/,/g, '')) > 50, 'the tool schemas alone are more than 50 tokens');
  } finally {
    await h.stop();
  }
});

test('/status: model.context_length from the config, and an estimate when the endpoint reports no usage', async () => {
  const h = await startHarness({ config: { model: { context_length: 9000 } } });
  try {
    h.fake.reportUsage = false;
    h.fake.enqueue({ text: 'x'.repeat(2000) });
    await h.adapter.inject({ text: 'write a lot' });
    await h.runner.waitIdle();
    const text = await status(h);
    const match = /^Context: ~([\d,]+) \/ 9,000 tokens \((\d+)%\), estimated \(no usage reported yet\)$/m.exec(text);
    assert.ok(match?.[1], text);
    // The stored reply is part of the next request: 2,000 characters at 3.5 a token is over 570 tokens.
    assert.ok(Number(match[1].replace(/,/g, '')) > 570, text);
  } finally {
    await h.stop();
  }
});
