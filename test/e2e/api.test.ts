import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type Database from 'better-sqlite3';
import OpenAI from 'openai';
import { DiskHealth } from '../../src/gateway/ops/disk-health.js';
import { systemClock } from '../../src/core/clock.js';
import { apiKeys, startApiGateway, type ApiGateway } from '../helpers/api.js';
import { fillStore, freeStore } from '../helpers/fill-store.js';

/** Waits until `check` holds (polling), or fails naming `what`. */
async function until(params: { check: () => boolean; what: string; timeoutMs?: number }): Promise<void> {
  const deadline = Date.now() + (params.timeoutMs ?? 10_000);
  while (!params.check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${params.what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The conversation the fake model was sent in its `index`-th request, as role: content lines. */
function sent(params: { g: ApiGateway; index: number }): string[] {
  const messages = params.g.h.fake.requests[params.index]?.body.messages ?? [];
  return messages.filter((m) => m['role'] !== 'system').map((m) => `${String(m['role'])}: ${String(m['content'])}`);
}

/** The error body of a refused request. */
async function errorOf(params: { answer: Response }): Promise<{ message: string; type: string; code: string | null; param: string | null }> {
  const body = (await params.answer.json()) as { error: { message: string; type: string; code: string | null; param: string | null } };
  return body.error;
}

async function withGateway(params: Parameters<typeof startApiGateway>[0], run: (g: ApiGateway) => Promise<void>): Promise<void> {
  const g = await startApiGateway(params);
  try {
    await run(g);
  } finally {
    await g.stop();
  }
}

describe('the API platform (the openai client against a real gateway and the fake model)', () => {
  test('streams the answer as deltas; a second request with the same user continues the session (the client\'s copy of history is not re-sent)', { timeout: 30_000 }, async () => {
    await withGateway({}, async (g) => {
      const client = g.client();
      g.h.fake.enqueue({ chunks: ['Hello', ' there', ', Alice', '. How can I help?'], chunkDelayMs: 300 });
      const stream = await client.chat.completions.create({
        model: 'anything',
        stream: true,
        user: 'alice',
        messages: [
          { role: 'system', content: 'client-only system prompt' },
          { role: 'user', content: 'client-only earlier question' },
          { role: 'assistant', content: 'client-only earlier answer' },
          { role: 'user', content: 'first question' },
        ],
      });
      const deltas: string[] = [];
      const finishes: (string | null)[] = [];
      let ids = new Set<string>();
      for await (const chunk of stream) {
        ids = new Set([...ids, chunk.id]);
        assert.equal(chunk.object, 'chat.completion.chunk');
        assert.equal(chunk.model, 'hermes-test');
        const choice = chunk.choices[0];
        if (choice?.delta.content) deltas.push(choice.delta.content);
        finishes.push(choice?.finish_reason ?? null);
      }
      assert.equal(deltas.join(''), 'Hello there, Alice. How can I help?');
      assert.ok(deltas.length >= 2, `the answer streamed in more than one delta (got ${JSON.stringify(deltas)})`);
      assert.ok(!deltas.join('').includes('▉'), 'the streaming cursor never reaches the client');
      assert.equal(finishes.at(-1), 'stop');
      assert.equal(finishes.filter((f) => f !== null).length, 1, 'one finish_reason, on the last chunk');
      assert.equal(ids.size, 1, 'one completion id across the chunks');
      assert.deepEqual(sent({ g, index: 0 }), ['user: first question'], 'only the new message reaches the agent');

      // The helper's .stream() on the same user: the agent sees the first exchange from the gateway's own history.
      g.h.fake.enqueue({ text: 'You asked about the first question.' });
      const second = client.chat.completions.stream({ model: 'hermes-test', user: 'alice', messages: [{ role: 'user', content: 'what did I ask?' }] });
      assert.equal(await second.finalContent(), 'You asked about the first question.');
      assert.deepEqual(sent({ g, index: 1 }), ['user: first question', 'assistant: Hello there, Alice. How can I help?', 'user: what did I ask?']);
      assert.ok(!JSON.stringify(g.h.fake.requests.map((r) => r.body.messages)).includes('client-only'), "the client's copy of the history never reaches the model");
    });
  });

  test('a request that does not stream gets one chat.completion; sessions follow user, X-Hermes-Session wins, and GET /v1/models lists the agent', { timeout: 30_000 }, async () => {
    await withGateway({}, async (g) => {
      const client = g.client();
      g.h.fake.setResponder((request) => ({ text: `answer ${g.h.fake.requests.indexOf(request) + 1}` }));
      const first = await client.chat.completions.create({ model: 'hermes-test', user: 'bob', messages: [{ role: 'user', content: 'bob one' }] });
      assert.equal(first.object, 'chat.completion');
      assert.equal(first.choices[0]?.message.content, 'answer 1');
      assert.equal(first.choices[0]?.message.role, 'assistant');
      assert.equal(first.choices[0]?.finish_reason, 'stop');
      await client.chat.completions.create({ model: 'hermes-test', user: 'carol', messages: [{ role: 'user', content: 'carol one' }] });
      assert.deepEqual(sent({ g, index: 1 }), ['user: carol one'], 'another user is another session');
      // The header names the session: it wins over the user field.
      await client.chat.completions.create({ model: 'hermes-test', user: 'carol', messages: [{ role: 'user', content: 'bob two' }] }, { headers: { 'X-Hermes-Session': 'bob' } });
      assert.deepEqual(sent({ g, index: 2 }), ['user: bob one', 'assistant: answer 1', 'user: bob two']);
      // No user and no header: one session per key.
      await client.chat.completions.create({ model: 'hermes-test', messages: [{ role: 'user', content: 'keyed one' }] });
      await client.chat.completions.create({ model: 'hermes-test', messages: [{ role: 'user', content: 'keyed two' }] });
      assert.deepEqual(sent({ g, index: 4 }), ['user: keyed one', 'assistant: answer 4', 'user: keyed two']);
      // Text content parts are taken, joined.
      await client.chat.completions.create({ model: 'hermes-test', user: 'dora', messages: [{ role: 'user', content: [{ type: 'text', text: 'part one' }, { type: 'text', text: 'part two' }] }] });
      assert.deepEqual(sent({ g, index: 5 }), ['user: part one\n\npart two']);
      const models = await client.models.list();
      assert.deepEqual(models.data.map((m) => m.id), ['hermes-test']);
      assert.equal((await client.models.retrieve('hermes-test')).id, 'hermes-test');
    });
  });

  test('401 for a missing or wrong key, 400 naming the field, 413 for a body too large: OpenAI error bodies, never a 500, nothing reaches the model', { timeout: 30_000 }, async () => {
    await withGateway({ overrides: { max_input_chars: 1000, body_limit_bytes: 4096 } }, async (g) => {
      const user = (content: unknown): unknown => ({ model: 'm', messages: [{ role: 'user', content }] });
      const missing = await g.post({ json: user('hi'), headers: { authorization: '' } });
      assert.equal(missing.status, 401);
      assert.equal((await errorOf({ answer: missing })).code, 'missing_api_key');
      const wrong = await g.post({ json: user('hi'), headers: { authorization: 'Bearer sk-not-a-key-of-this-gateway-000' } });
      assert.equal(wrong.status, 401);
      const wrongBody = await errorOf({ answer: wrong });
      assert.equal(wrongBody.code, 'invalid_api_key');
      assert.equal(wrongBody.type, 'invalid_request_error');
      await assert.rejects(g.client({ apiKey: 'sk-not-a-key-of-this-gateway-000' }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }), OpenAI.AuthenticationError);
      const modelsWithout = await fetch(`http://127.0.0.1:${g.port}/v1/models`);
      assert.equal(modelsWithout.status, 401);

      const cases: { what: string; body: string; param: string | null; message: RegExp }[] = [
        { what: 'not JSON', body: '{"model": "m", "messages": [', param: null, message: /JSON/ },
        { what: 'not an object', body: '[1, 2]', param: null, message: /object/ },
        { what: 'no messages', body: JSON.stringify({ model: 'm' }), param: 'messages', message: /messages is required/ },
        { what: 'messages not an array', body: JSON.stringify({ model: 'm', messages: 'hi' }), param: 'messages', message: /array/ },
        { what: 'no message at all', body: JSON.stringify({ model: 'm', messages: [] }), param: 'messages', message: /empty/ },
        { what: 'a message without a role', body: JSON.stringify({ model: 'm', messages: [{ content: 'hi' }] }), param: 'messages[0].role', message: /string/ },
        { what: 'the last message not the user\'s', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'hello' }] }), param: 'messages[1].role', message: /must be "user"/ },
        { what: 'stream not a boolean', body: JSON.stringify({ ...(user('hi') as object), stream: 'yes' }), param: 'stream', message: /boolean/ },
        { what: 'model not a string', body: JSON.stringify({ model: 7, messages: [{ role: 'user', content: 'hi' }] }), param: 'model', message: /string/ },
        { what: 'user not a string', body: JSON.stringify({ ...(user('hi') as object), user: 5 }), param: 'user', message: /string/ },
        { what: 'content not text', body: JSON.stringify(user(42)), param: 'messages[0].content', message: /string or an array/ },
        { what: 'an image part', body: JSON.stringify(user([{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }])), param: 'messages[0].content[0].type', message: /text only/ },
        { what: 'an empty message', body: JSON.stringify(user('   ')), param: 'messages[0].content', message: /empty/ },
        { what: 'a message too long', body: JSON.stringify(user('x'.repeat(1001))), param: 'messages[0].content', message: /max_input_chars/ },
        { what: 'n above 1', body: JSON.stringify({ ...(user('hi') as object), n: 2 }), param: 'n', message: /one answer/ },
      ];
      for (const c of cases) {
        const answer = await g.post({ body: c.body });
        assert.equal(answer.status, 400, c.what);
        const error = await errorOf({ answer });
        assert.equal(error.param, c.param, c.what);
        assert.equal(error.type, 'invalid_request_error', c.what);
        assert.match(error.message, c.message, c.what);
        if (c.param !== null) assert.ok(error.message.includes(c.param), `${c.what}: the message names ${c.param}`);
      }
      const badSession = await g.post({ json: user('hi'), headers: { 'x-hermes-session': 'x'.repeat(201) } });
      assert.equal(badSession.status, 400);
      assert.equal((await errorOf({ answer: badSession })).param, 'X-Hermes-Session');
      const tooLarge = await g.post({ json: user('y'.repeat(5000)) });
      assert.equal(tooLarge.status, 413);
      assert.equal((await errorOf({ answer: tooLarge })).code, 'request_too_large');
      // Another content type: read as text all the same, so a body that is not JSON is a 400 like any.
      const notJson = await g.post({ body: 'hi', headers: { 'content-type': 'text/plain' } });
      assert.equal(notJson.status, 400);
      assert.match((await errorOf({ answer: notJson })).message, /JSON/);
      const form = await g.post({ body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.equal(form.status, 415);
      assert.equal((await errorOf({ answer: form })).type, 'invalid_request_error');
      assert.equal(g.h.fake.requests.length, 0, 'no refused request reached the model');
      const lines = g.logs.filter((line) => line['reason'] === 'bad_token' || line['reason'] === 'malformed' || line['reason'] === 'oversized');
      assert.ok(lines.some((line) => line['reason'] === 'bad_token') && lines.some((line) => line['reason'] === 'malformed') && lines.some((line) => line['reason'] === 'oversized'), 'rejections are logged');
      assert.ok(!g.logs.some((line) => Number(line['level']) >= 50), 'no error lines');
      // The gateway still answers.
      g.h.fake.enqueue({ text: 'still here' });
      const ok = await g.client().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(ok.choices[0]?.message.content, 'still here');
    });
  });

  test('a key outside allowed_users gets 403 and never reaches the agent', { timeout: 30_000 }, async () => {
    await withGateway({ overrides: { allowed_users: ['key-1'] } }, async (g) => {
      const refused = await g.post({ json: { model: 'm', messages: [{ role: 'user', content: 'let me in' }] }, headers: { authorization: `Bearer ${apiKeys.stranger}` } });
      assert.equal(refused.status, 403);
      assert.equal((await errorOf({ answer: refused })).type, 'permission_error');
      g.h.fake.enqueue({ text: 'for the owner' });
      const ok = await g.client().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
      assert.equal(ok.choices[0]?.message.content, 'for the owner');
      assert.equal(g.h.fake.requests.length, 1);
    });
  });

  test('a client that disconnects mid-stream: the turn still completes and is stored, and the session goes on', { timeout: 30_000 }, async () => {
    await withGateway({}, async (g) => {
      const words = Array.from({ length: 12 }, (_, i) => `w${i}`);
      g.h.fake.enqueue({ chunks: words.map((w, i) => (i ? ` ${w}` : w)), chunkDelayMs: 150 });
      const answer = await g.post({ json: { model: 'm', stream: true, user: 'eve', messages: [{ role: 'user', content: 'count slowly' }] }, headers: {} });
      assert.equal(answer.status, 200);
      assert.match(answer.headers.get('content-type') ?? '', /text\/event-stream/);
      const reader = answer.body?.getReader();
      assert.ok(reader);
      let text = '';
      const decoder = new TextDecoder();
      while (!/"content":"w0/.test(text)) {
        const read = await reader.read();
        if (read.done) break;
        text += decoder.decode(read.value, { stream: true });
      }
      assert.match(text, /"content":"w0/, 'the first delta arrived');
      await reader.cancel();
      await until({ check: () => g.logs.some((line) => String(line['msg']).startsWith('API client went away mid-stream')), what: 'the disconnect noticed' });
      await until({ check: () => g.h.fake.requests[0]?.ended !== undefined, what: 'the model answer complete' });
      await g.h.runner.waitIdle();
      assert.equal(g.h.fake.requests[0]?.cut, undefined, 'the model call was not cut short');
      g.h.fake.enqueue({ text: 'after the disconnect' });
      const next = await g.client().chat.completions.create({ model: 'm', user: 'eve', messages: [{ role: 'user', content: 'are you there?' }] });
      assert.equal(next.choices[0]?.message.content, 'after the disconnect');
      assert.deepEqual(sent({ g, index: 1 }), ['user: count slowly', `assistant: ${words.join(' ')}`, 'user: are you there?'], 'the whole answer was stored');
      assert.ok(!g.logs.some((line) => Number(line['level']) >= 50), 'no error lines');
    });
  });

  test('two requests at once on one session follow the busy policy: interrupt stops the first, both get an answer', { timeout: 30_000 }, async () => {
    await withGateway({}, async (g) => {
      g.h.fake.enqueue({ chunks: Array.from({ length: 40 }, (_, i) => `slow${i} `), chunkDelayMs: 100 }, { text: 'the second answer' });
      const client = g.client();
      const first = await client.chat.completions.create({ model: 'm', stream: true, user: 'fay', messages: [{ role: 'user', content: 'a long story' }] });
      let firstText = '';
      const firstDone = (async () => {
        for await (const chunk of first) firstText += chunk.choices[0]?.delta.content ?? '';
      })();
      await until({ check: () => firstText.includes('slow0'), what: 'the first answer streaming' });
      const second = await client.chat.completions.create({ model: 'm', user: 'fay', messages: [{ role: 'user', content: 'never mind' }] });
      await firstDone;
      assert.equal(second.choices[0]?.message.content, 'the second answer');
      assert.match(firstText, /^slow0/);
      assert.match(firstText, /\(stopped\)$/, 'the interrupted answer says so');
    });
  });

  test('busy policy queue: a second request waits for the first turn, then gets its own answer', { timeout: 30_000 }, async () => {
    await withGateway({ config: { gateway: { busy_policy: 'queue' } } }, async (g) => {
      g.h.fake.enqueue({ chunks: ['one ', 'two ', 'three'], chunkDelayMs: 200 }, { text: 'the queued answer' });
      const client = g.client();
      const [a, b] = await Promise.all([
        client.chat.completions.create({ model: 'm', user: 'gus', messages: [{ role: 'user', content: 'first' }] }),
        (async () => {
          await g.h.fake.waitForRequests(1);
          return client.chat.completions.create({ model: 'm', user: 'gus', messages: [{ role: 'user', content: 'second' }] });
        })(),
      ]);
      assert.equal(a.choices[0]?.message.content, 'one two three');
      assert.equal(b.choices[0]?.message.content, 'the queued answer');
      assert.deepEqual(sent({ g, index: 1 }), ['user: first', 'assistant: one two three', 'user: second']);
    });
  });

  test('busy policy steer: a message sent while a turn runs still gets an answer (the turn\'s, or its own if the turn ended before taking it)', { timeout: 30_000 }, async () => {
    await withGateway({ config: { gateway: { busy_policy: 'steer' } } }, async (g) => {
      g.h.fake.enqueue({ chunks: ['first ', 'answer'], chunkDelayMs: 300 }, { text: 'the steered answer' });
      const client = g.client();
      const a = client.chat.completions.create({ model: 'm', user: 'ivy', messages: [{ role: 'user', content: 'first' }] });
      await g.h.fake.waitForRequests(1);
      const b = await client.chat.completions.create({ model: 'm', user: 'ivy', messages: [{ role: 'user', content: 'also this' }] });
      assert.equal((await a).choices[0]?.message.content, 'first answer');
      assert.ok((b.choices[0]?.message.content ?? '') !== '', 'the steered request is answered');
      await g.h.runner.waitIdle();
    });
  });

  test('a command is answered at once by the gateway (not the agent)', { timeout: 30_000 }, async () => {
    await withGateway({}, async (g) => {
      const status = await g.client().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: '/status' }] });
      assert.ok((status.choices[0]?.message.content ?? '').length > 0, 'the /status reply is the answer');
      assert.equal(g.h.fake.requests.length, 0);
    });
  });

  test('the journal refuses (disk full): 503 with Retry-After, and the request is taken once there is room', { timeout: 30_000 }, async () => {
    let db: Database.Database | undefined;
    await withGateway({ harness: { disk: new DiskHealth({ clock: systemClock, probeIntervalMs: 100 }), configureStore: (connection) => void (db = connection) } }, async (g) => {
      assert.ok(db);
      fillStore({ db });
      const refused = await g.post({ json: { model: 'm', messages: [{ role: 'user', content: 'while full' }] } });
      assert.equal(refused.status, 503);
      assert.ok(Number(refused.headers.get('retry-after')) > 0, 'Retry-After');
      assert.equal((await errorOf({ answer: refused })).code, 'journal_refused');
      freeStore({ db });
      g.h.fake.enqueue({ text: 'taken now' });
      const ok = await g.client().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'while full' }] });
      assert.equal(ok.choices[0]?.message.content, 'taken now');
    });
  });

  test('the gateway sends a session what no request waits for: it waits in GET /v1/hermes/outbox', { timeout: 30_000 }, async () => {
    await withGateway({}, async (g) => {
      g.h.fake.enqueue({ text: 'hi' });
      await g.client().chat.completions.create({ model: 'm', user: 'hal', messages: [{ role: 'user', content: 'hello' }] });
      await g.h.runner.waitIdle();
      g.h.fake.enqueue({ text: 'the job says hello' });
      const result = g.h.runner.inject({ platform: 'api', chat: { id: 'key-1/hal', kind: 'dm' }, text: 'a check printed something', sessionKey: 'test:api:check-x', origin: { kind: 'check', name: 'x' }, messageId: 'check-x-1' });
      assert.equal(result.kind, 'queued');
      if (result.kind === 'queued') assert.equal((await result.finished).outcome, 'delivered');
      const outbox = await fetch(`http://127.0.0.1:${g.port}/v1/hermes/outbox?user=hal`, { headers: { authorization: `Bearer ${apiKeys.owner}` } });
      assert.equal(outbox.status, 200);
      const body = (await outbox.json()) as { data: { content: string }[] };
      assert.deepEqual(body.data.map((m) => m.content), ['the job says hello']);
      const again = (await (await fetch(`http://127.0.0.1:${g.port}/v1/hermes/outbox?user=hal`, { headers: { authorization: `Bearer ${apiKeys.owner}` } })).json()) as { data: unknown[] };
      assert.equal(again.data.length, 0, 'collected once');
    });
  });
});
