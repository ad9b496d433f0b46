import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI from 'openai';
import { collectStream } from '../../../src/agent/stream.js';
import { isStreamOptionsRefusal, parseUsage } from '../../../src/agent/usage.js';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { systemClock } from '../../../src/core/clock.js';

/** Chunks as an async iterable (what the SDK's Stream is). */
async function* chunks(list: readonly unknown[]): AsyncGenerator<ChatCompletionChunk> {
  for (const chunk of list) yield chunk as ChatCompletionChunk;
}

describe('usage parsing', () => {
  test("OpenAI's usage object, DeepSeek's cache field, and junk", () => {
    assert.deepEqual(parseUsage({ usage: { prompt_tokens: 100, completion_tokens: 7, prompt_tokens_details: { cached_tokens: 64 } } }), {
      promptTokens: 100,
      completionTokens: 7,
      cachedTokens: 64,
    });
    assert.deepEqual(parseUsage({ usage: { prompt_tokens: 100, completion_tokens: 7, prompt_cache_hit_tokens: 32 } }), {
      promptTokens: 100,
      completionTokens: 7,
      cachedTokens: 32,
    });
    assert.deepEqual(parseUsage({ usage: { prompt_tokens: 'many', completion_tokens: -1 } }), { promptTokens: null, completionTokens: null, cachedTokens: null });
    assert.equal(parseUsage({ usage: null }), undefined);
  });

  test('a stream whose last chunk has no choices but usage is read whole; chunks without choices do not choke it', async () => {
    const reply = await collectStream({
      stream: chunks([
        { choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }], usage: null },
        { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: null },
        {},
        { choices: [], usage: { prompt_tokens: 12, completion_tokens: 1, total_tokens: 13 } },
      ]),
      onText: () => undefined,
      idleTimeoutMs: 5_000,
      clock: systemClock,
    });
    assert.deepEqual(reply, { content: 'Hi', toolCalls: [], finishReason: 'stop', usage: { promptTokens: 12, completionTokens: 1, cachedTokens: null } });
  });

  test('a refusal of stream_options is told from other client errors', () => {
    const error = (status: number, body: object): unknown => OpenAI.APIError.generate(status, { error: body }, undefined, new Headers());
    assert.ok(isStreamOptionsRefusal({ error: error(400, { message: 'Unrecognized request argument supplied: stream_options' }) }));
    assert.ok(isStreamOptionsRefusal({ error: error(422, { detail: [{ loc: ['body', 'stream_options'], msg: 'Extra inputs are not permitted' }] }) }));
    assert.ok(!isStreamOptionsRefusal({ error: error(400, { message: 'context length exceeded' }) }));
    assert.ok(!isStreamOptionsRefusal({ error: error(500, { message: 'stream_options broke the server' }) }));
    assert.ok(!isStreamOptionsRefusal({ error: new Error('stream_options') }));
  });
});
