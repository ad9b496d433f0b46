import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import OpenAI from 'openai';
import { FakeOpenAI } from '../../fakes/openai/server.js';

describe('FakeOpenAI', () => {
  const fake = new FakeOpenAI();
  let client: OpenAI;
  before(async () => {
    await fake.start();
    client = new OpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL, maxRetries: 0 });
  });
  after(() => fake.close());

  test('streams SSE chunks ending with [DONE], tool calls split over deltas like OpenAI', async () => {
    fake.enqueue({ chunks: ['Hel', 'lo'], toolCalls: [{ id: 'call_a', name: 'read_file', arguments: { path: 'a.txt' } }] });
    const res = await fetch(`${fake.baseURL}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(res.headers.get('content-type'), 'text/event-stream');
    const events = (await res.text()).split('\n\n').filter((e) => e !== '');
    assert.equal(events.at(-1), 'data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.replace(/^data: /, '')) as {
      object: string;
      choices: { delta: { content?: string; tool_calls?: { index: number; id?: string; type?: string; function: { name?: string; arguments?: string } }[] }; finish_reason: string | null }[];
    });
    assert.ok(chunks.every((c) => c.object === 'chat.completion.chunk'));
    const text = chunks.map((c) => c.choices[0]?.delta.content ?? '').join('');
    assert.equal(text, 'Hello');
    const toolDeltas = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    assert.ok(toolDeltas.length >= 3, 'arguments should arrive in several pieces');
    assert.deepEqual(toolDeltas[0], { index: 0, id: 'call_a', type: 'function', function: { name: 'read_file', arguments: '' } });
    for (const later of toolDeltas.slice(1)) {
      assert.equal(later.id, undefined);
      assert.equal(later.function.name, undefined);
    }
    assert.equal(toolDeltas.map((d) => d.function.arguments).join(''), '{"path":"a.txt"}');
    assert.equal(chunks.at(-1)?.choices[0]?.finish_reason, 'tool_calls');
  });

  test('answers non-streaming requests with a chat.completion and records the request', async () => {
    fake.enqueue({ text: 'plain answer' });
    const before = fake.requests.length;
    const completion = await client.chat.completions.create({ model: 'm1', messages: [{ role: 'user', content: 'q' }] });
    assert.equal(completion.choices[0]?.message.content, 'plain answer');
    assert.equal(completion.choices[0]?.finish_reason, 'stop');
    const captured = fake.requests[before];
    assert.equal(captured?.body.model, 'm1');
    assert.equal(captured?.headers['authorization'], 'Bearer sk-test');
  });

  test('scripted error status carries an OpenAI error body and Retry-After', async () => {
    fake.enqueue({ status: 429, retryAfterSeconds: 7, errorMessage: 'slow down' });
    await assert.rejects(client.chat.completions.create({ model: 'm', messages: [] }), (error: unknown) => {
      assert.ok(error instanceof OpenAI.RateLimitError);
      assert.equal(error.headers.get('retry-after'), '7');
      assert.match(error.message, /slow down/);
      return true;
    });
  });

  test('without a scripted reply it answers 500 saying so; a responder answers when the queue is empty', async () => {
    await assert.rejects(client.chat.completions.create({ model: 'm', messages: [] }), /FakeOpenAI: no scripted reply/);
    fake.setResponder((req) => ({ text: `echo ${String(req.body.model)}` }));
    const completion = await client.chat.completions.create({ model: 'echo-me', messages: [] });
    assert.equal(completion.choices[0]?.message.content, 'echo echo-me');
    fake.setResponder(undefined);
  });

  test('a hanging stream stays open until the client aborts', async () => {
    fake.enqueue({ chunks: ['a', 'b', 'c'], hangAfterChunks: 2 });
    const controller = new AbortController();
    const stream = await client.chat.completions.create({ model: 'm', messages: [], stream: true }, { signal: controller.signal });
    const seen: string[] = [];
    for await (const chunk of stream) {
      seen.push(chunk.choices[0]?.delta.content ?? '');
      if (seen.join('') === 'ab') {
        // Nothing more arrives: the stream hangs after two content chunks until the client aborts.
        setTimeout(() => controller.abort(), 100);
      }
    }
    assert.deepEqual(seen, ['', 'a', 'b']);
  });
});

test('close() destroys connections that are still hanging', async () => {
  const fake = new FakeOpenAI();
  await fake.start();
  const client = new OpenAI({ apiKey: 'sk-test', baseURL: fake.baseURL, maxRetries: 0 });
  fake.enqueue({ text: 'never sent', hangAfterChunks: 0 });
  const pending = client.chat.completions.create({ model: 'm', messages: [] });
  await fake.waitForRequests(1);
  await fake.close();
  await assert.rejects(pending, (error: unknown) => error instanceof OpenAI.APIConnectionError);
});
