import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { FakeClock } from '../../helpers/fake-clock.js';
import { historyProblems, runTurn, sleep, startRig, toolContextFor, type Rig } from './support.js';

/** Waits (real time) until the fake clock has a pending sleeper. */
async function untilSleeping(clock: FakeClock): Promise<void> {
  for (let i = 0; i < 400 && clock.pending === 0; i++) await sleep(5);
  assert.equal(clock.pending, 1, 'the agent never started its backoff sleep');
}

describe('AIAgent model errors', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  test('429 with Retry-After: 1 is retried, but not before a second has passed', async () => {
    const clock = new FakeClock();
    rig = await startRig({ clock, maxRetries: 2 });
    rig.fake.enqueue({ status: 429, retryAfterSeconds: 1 }, { text: 'finally' });
    const turn = runTurn({ rig, userText: 'hi', clock });
    await untilSleeping(clock);
    await clock.advance(999);
    await sleep(30);
    assert.equal(rig.fake.requests.length, 1, 'retried before Retry-After elapsed');
    await clock.advance(1);
    const { result } = await turn;
    assert.equal(rig.fake.requests.length, 2);
    assert.deepEqual(result, { outcome: 'final', text: 'finally', note: undefined, modelCalls: 1 });
  });

  test('500 without text is retried with backoff; retries give up after maxRetries', async () => {
    const clock = new FakeClock();
    rig = await startRig({ clock, maxRetries: 1 });
    rig.fake.enqueue({ status: 500 }, { status: 503 });
    const turn = runTurn({ rig, userText: 'hi', clock });
    await untilSleeping(clock);
    await clock.advance(1_000);
    const { result } = await turn;
    assert.equal(rig.fake.requests.length, 2);
    assert.equal(result.outcome, 'error');
    assert.match(result.note ?? '', /temporary problem \(HTTP 503\).*failed 2 times in a row/);
  });

  test('401 ends the turn with an API key hint, without retrying or leaking the key', async () => {
    rig = await startRig({ maxRetries: 3, apiKey: 'sk-very-secret-key-42' });
    rig.fake.enqueue({ status: 401, errorMessage: 'Incorrect API key provided: sk-very-secret-key-42.' });
    const { result, messages } = await runTurn({ rig, userText: 'hi' });
    assert.equal(result.outcome, 'error');
    assert.equal(rig.fake.requests.length, 1);
    assert.match(result.note ?? '', /model\.api_key/);
    assert.match(result.note ?? '', /OPENAI_API_KEY/);
    assert.ok(!(result.note ?? '').includes('very-secret'), result.note);
    assert.deepEqual(messages, [{ role: 'user', content: 'hi' }]);
  });

  test("a reply stopped by the provider's content filter (finish_reason content_filter) says so, not 'empty reply'", async () => {
    rig = await startRig({ maxRetries: 3 });
    rig.fake.enqueue({ text: '', finishReason: 'content_filter' });
    const { result } = await runTurn({ rig, userText: 'hi' });
    assert.equal(rig.fake.requests.length, 1);
    assert.equal(result.note, "The model provider's content filter stopped the reply; rephrase the message and try again.");
  });

  test('404 says the model name or base_url is wrong', async () => {
    rig = await startRig({ maxRetries: 3 });
    rig.fake.enqueue({ status: 404, errorMessage: 'The model `fake-model` does not exist' });
    const { result } = await runTurn({ rig, userText: 'hi' });
    assert.equal(result.outcome, 'error');
    assert.equal(rig.fake.requests.length, 1);
    assert.match(result.note ?? '', /"fake-model".*model name or model\.base_url is wrong/);
  });

  test('a stream that breaks after text was shown is not retried; the text is kept with a note', async () => {
    rig = await startRig({ maxRetries: 3 });
    rig.fake.enqueue({ chunks: ['Part one, ', 'part two'], breakAfterChunks: 1 }, { text: 'must not be used' });
    const { result, messages } = await runTurn({ rig, userText: 'hi' });
    assert.equal(result.outcome, 'error');
    assert.equal(result.text, 'Part one, ');
    assert.match(result.note ?? '', /cut off/);
    assert.equal(rig.fake.requests.length, 1);
    assert.deepEqual(messages.at(-1), { role: 'assistant', content: 'Part one, ' });
  });

  test('a stream that stalls before any text is aborted after the request timeout and retried', async () => {
    const clock = new FakeClock();
    rig = await startRig({ clock, maxRetries: 1, requestTimeoutMs: 30_000 });
    rig.fake.enqueue({ chunks: ['never sent'], hangAfterChunks: 0 }, { text: 'second try' });
    const turn = runTurn({ rig, userText: 'hi', clock });
    await untilSleeping(clock);
    await clock.advance(29_999);
    await sleep(30);
    assert.equal(rig.fake.requests.length, 1, 'gave up on the stream before the timeout');
    await clock.advance(1);
    await untilSleeping(clock); // the backoff before the retry
    await clock.advance(1_000);
    const { result } = await turn;
    assert.equal(rig.fake.requests.length, 2);
    assert.deepEqual(result, { outcome: 'final', text: 'second try', note: undefined, modelCalls: 1 });
  });

  test('a stream that stalls after text was shown ends with an error note, keeping the text', async () => {
    const clock = new FakeClock();
    const requestSignals: AbortSignal[] = [];
    rig = await startRig({
      clock,
      maxRetries: 3,
      requestTimeoutMs: 30_000,
      onRequestSignal: (signal) => requestSignals.push(signal),
    });
    rig.fake.enqueue({ chunks: ['Thinking', ' more'], hangAfterChunks: 1 }, { text: 'must not be used' });
    const capture = runTurn({ rig, userText: 'hi', clock });
    for (let i = 0; i < 400 && clock.pending === 0; i++) await sleep(5);
    await sleep(50); // let 'Thinking' arrive; the collector then waits for the next chunk
    await clock.advance(30_000);
    const { result, messages } = await capture;
    assert.equal(result.outcome, 'error');
    assert.equal(result.text, 'Thinking');
    assert.match(result.note ?? '', /did not answer in time.*cut off/);
    assert.equal(rig.fake.requests.length, 1);
    assert.deepEqual(messages.at(-1), { role: 'assistant', content: 'Thinking' });
    assert.equal(requestSignals.length, 1);
    assert.equal(requestSignals[0]?.aborted, true, 'the stalled HTTP request was left open');
  });

  test('an interrupt while the model is streaming ends the turn as interrupted, keeping the shown text', async () => {
    rig = await startRig({});
    rig.fake.enqueue({ chunks: ['Thinking', ' more'], hangAfterChunks: 1 });
    const controller = new AbortController();
    const seen: string[] = [];
    const turn = rig.agent.run({
      systemPrompt: 'You are a test agent.',
      history: [],
      userText: 'hi',
      signal: controller.signal,
      onTextDelta: (delta) => {
        seen.push(delta);
        controller.abort();
      },
      onMessage: (message) => seen.push(`[${message.role}]`),
      toolContext: toolContextFor({ workspace: rig.workspace }),
    });
    const result = await turn;
    assert.equal(result.outcome, 'interrupted');
    assert.equal(result.text, 'Thinking');
    assert.deepEqual(seen, ['[user]', 'Thinking', '[assistant]']);
  });

  test('an abort during the backoff sleep ends the turn as interrupted', async () => {
    const clock = new FakeClock();
    rig = await startRig({ clock, maxRetries: 3 });
    rig.fake.enqueue({ status: 502 });
    const controller = new AbortController();
    const turn = runTurn({ rig, userText: 'hi', clock, signal: controller.signal });
    await untilSleeping(clock);
    controller.abort();
    const { result, messages } = await turn;
    assert.equal(result.outcome, 'interrupted');
    assert.equal(rig.fake.requests.length, 1);
    assert.deepEqual(historyProblems({ messages }), []);
  });
});
