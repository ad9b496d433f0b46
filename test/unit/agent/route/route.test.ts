import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { AIAgent } from '../../../../src/agent/agent.js';
import type { AgentResult } from '../../../../src/agent/types.js';
import { routeFromConfig } from '../../../../src/agent/route/from-config.js';
import type { ModelRoute } from '../../../../src/agent/route/route.js';
import { validateConfig } from '../../../../src/config/validate.js';
import { openStore } from '../../../../src/store/sqlite-store.js';
import type { Store } from '../../../../src/store/types.js';
import { ToolRegistry } from '../../../../src/tools/registry.js';
import { FakeOpenAI, type CapturedRequest } from '../../../fakes/openai/server.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { sleep, toolContextFor } from '../support.js';
import { appConfigSchema } from '../../../../src/app/config-schema.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

const KEY_A = 'sk-test-key-aaaaaaaa1111';
const KEY_B = 'sk-test-key-bbbbbbbb2222';
const DAY = 24 * 60 * 60 * 1_000;

/** The key a request carried. */
function keyOf(req: CapturedRequest): string {
  return String(req.headers.authorization ?? '').replace(/^Bearer /, '');
}

describe('model route: credential pool and fallback chain through the real SDK', () => {
  let fake: FakeOpenAI;
  let dir: string;
  let stores: Store[] = [];
  beforeEach(async () => {
    fake = new FakeOpenAI();
    await fake.start();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-route-'));
  });
  afterEach(async () => {
    for (const store of stores) store.close();
    stores = [];
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Opens (or reopens, like a restart) the profile's store. */
  function openProfileStore(clock: FakeClock): Store {
    const store = openStore({ path: path.join(dir, 'state.db'), clock });
    stores.push(store);
    return store;
  }

  /** An agent over a route built from a `model:` config section. */
  function agentFor(params: { model: Record<string, unknown>; clock: FakeClock; store?: Store }): { agent: AIAgent; route: ModelRoute } {
    const tree = { timezone: 'UTC', model: { base_url: fake.baseURL, name: 'model-a', ...params.model } };
    const { config } = validateConfig({ schema: configSchema,  tree, file: 'test' });
    assert.ok(config, 'the test config is valid');
    const route = routeFromConfig({ config, clock: params.clock, store: params.store });
    const agent = new AIAgent({
      route,
      model: config.model.name,
      registry: new ToolRegistry({ tools: [] }),
      maxIterations: 5,
      maxRetries: config.model.max_retries,
      maxParallel: 1,
      clock: params.clock,
      requestTimeoutMs: 60_000,
    });
    return { agent, route };
  }

  function run(agent: AIAgent, clock: FakeClock, userText = 'hi'): Promise<AgentResult> {
    return agent.run({
      systemPrompt: 'You are a test agent.',
      history: [],
      userText,
      signal: new AbortController().signal,
      onTextDelta: () => {},
      onMessage: () => {},
      toolContext: toolContextFor({ workspace: dir, clock }),
    });
  }

  /** Waits (real time) until the agent sleeps on the fake clock. */
  async function untilSleeping(clock: FakeClock): Promise<void> {
    for (let i = 0; i < 400 && clock.pending === 0; i++) await sleep(5);
    assert.equal(clock.pending, 1, 'the agent never started its backoff sleep');
  }

  test('key A answers 402: key B answers the same turn; A is skipped for 24 h, also after a restart, then used again', async () => {
    const clock = new FakeClock();
    fake.setResponder((req) => (keyOf(req) === KEY_A ? { status: 402, errorMessage: 'Payment required: no credit left' } : { text: `ok from ${keyOf(req).slice(-4)}` }));
    const model = { api_key: KEY_A, api_keys: [KEY_B], max_retries: 3 };
    const first = agentFor({ model, clock, store: openProfileStore(clock) });
    const result = await run(first.agent, clock);
    assert.equal(result.outcome, 'final');
    assert.equal(result.text, 'ok from 2222');
    assert.equal(result.note, undefined, 'a key switch is not a fallback: no note');
    assert.deepEqual(fake.requests.map(keyOf), [KEY_A, KEY_B], 'no retry on A: out of credit switches key at once');
    assert.match(JSON.stringify(first.route.status()), /"masked":"sk-…1111","calls":1,"coolingUntil":\d+,"reason":"out_of_credit"/);

    await clock.advance(DAY - 60_000);
    await run(first.agent, clock);
    assert.equal(keyOf(fake.requests.at(-1)!), KEY_B, 'A still rests after 23 h 59 min');

    stores.pop()?.close();
    const restarted = agentFor({ model, clock, store: openProfileStore(clock) });
    await run(restarted.agent, clock);
    assert.equal(keyOf(fake.requests.at(-1)!), KEY_B, 'A still rests after a restart');
    assert.equal(fake.requests.length, 4);

    await clock.advance(60_000);
    fake.setResponder((req) => ({ text: `ok from ${keyOf(req).slice(-4)}` }));
    assert.equal((await run(restarted.agent, clock)).text, 'ok from 1111', 'least_used: A (1 call) after 24 h, B has 3');
  });

  test('key A 429 × N: backoff honours Retry-After on A, then the pool rotates to B and A rests 1 h', async () => {
    const clock = new FakeClock();
    fake.setResponder((req) => (keyOf(req) === KEY_A ? { status: 429, errorMessage: 'Rate limit reached', retryAfterSeconds: 20 } : { text: 'B here' }));
    const { agent, route } = agentFor({ model: { api_keys: [KEY_A, KEY_B], key_strategy: 'fill_first', max_retries: 2 }, clock });
    const turn = run(agent, clock);
    for (const attempt of [1, 2]) {
      await untilSleeping(clock);
      await clock.advance(19_999);
      assert.equal(fake.requests.length, attempt, 'the retry waited for Retry-After (20 s)');
      await clock.advance(1);
    }
    const result = await turn;
    assert.equal(result.text, 'B here');
    assert.deepEqual(fake.requests.map(keyOf), [KEY_A, KEY_A, KEY_A, KEY_B]);
    const [a] = route.status()[0]!.keys;
    assert.equal(a?.reason, 'rate_limit');
    assert.equal(a?.coolingUntil, clock.now() + 60 * 60 * 1_000);
  });

  test('every key cooling down: a clear message saying when the first comes back', async () => {
    const clock = new FakeClock(Date.UTC(2026, 0, 5, 13, 5));
    fake.setResponder(() => ({ status: 401, errorMessage: 'Incorrect API key provided' }));
    const { agent } = agentFor({ model: { api_keys: [KEY_A, KEY_B], max_retries: 3 }, clock });
    const first = await run(agent, clock);
    assert.equal(first.outcome, 'error');
    assert.match(first.note ?? '', /rejected the API key sk-…2222 \(HTTP 401\)/, 'the message names the (last tried) key, masked');
    assert.ok(!(first.note ?? '').includes('aaaa1111'), 'the key is not quoted');
    assert.equal(fake.requests.length, 2, 'each key tried once, no retries on 401');
    const second = await run(agent, clock);
    assert.equal(fake.requests.length, 2, 'resting keys are not called');
    assert.equal(second.outcome, 'error');
    assert.match(second.note ?? '', /Every API key for model "model-a" is cooling down.*first comes back at 6 Jan 13:05 \(it was rejected\).*model\.api_keys/);
  });

  test('a one-key pool whose key rests is tried again once a minute, and an answer ends the rest (a topped-up account is not ignored for a day)', async () => {
    const clock = new FakeClock();
    fake.setResponder(() => ({ status: 402, errorMessage: 'Payment required: no credit left' }));
    const { agent, route } = agentFor({ model: { api_key: KEY_A, max_retries: 3 }, clock });
    assert.equal((await run(agent, clock)).outcome, 'error');
    assert.equal(fake.requests.length, 1);
    assert.match((await run(agent, clock)).note ?? '', /cooling down/);
    assert.equal(fake.requests.length, 1, 'within the minute the resting key is not called');
    await clock.advance(60_000);
    assert.match((await run(agent, clock)).note ?? '', /credit/i, 'the probe still fails: the provider\'s own message');
    assert.equal(fake.requests.length, 2, 'one probe after a minute');
    await clock.advance(60_000);
    fake.setResponder(() => ({ text: 'back' }));
    const back = await run(agent, clock);
    assert.equal(back.text, 'back');
    assert.equal(route.status()[0]?.keys[0]?.coolingUntil, undefined, 'the answered probe ended the rest');
    assert.equal((await run(agent, clock)).text, 'back');
    assert.equal(fake.requests.length, 4);
  });

  test('the probe of a rate-limited resting key is one request without backoff; still limited, the fallback answers at once', async () => {
    const clock = new FakeClock();
    fake.setResponder((req) => (req.body.model === 'model-a' ? { status: 429, errorMessage: 'Rate limit reached' } : { text: 'from b' }));
    const { agent } = agentFor({ model: { api_key: KEY_A, max_retries: 2, fallbacks: [{ name: 'model-b' }] }, clock });
    const first = run(agent, clock);
    for (let i = 0; i < 400 && fake.requests.length < 4; i++) {
      await sleep(5);
      await clock.advance(1_000);
    }
    assert.equal((await first).text, 'from b');
    assert.deepEqual(fake.requests.map((r) => r.body.model), ['model-a', 'model-a', 'model-a', 'model-b'], 'retries, then the key rests');
    await clock.advance(60_000);
    const probing = run(agent, clock);
    for (let i = 0; i < 200 && fake.requests.length < 6; i++) await sleep(5);
    assert.equal(clock.pending, 0, 'no backoff sleep for the probe');
    const probed = await probing;
    assert.equal(probed.text, 'from b');
    assert.deepEqual(fake.requests.slice(4).map((r) => r.body.model), ['model-a', 'model-b'], 'one probe request, then the fallback');
  });

  test('primary 500 × retries: the fallback answers that turn with a one-line note; the next turn goes to the primary', async () => {
    const clock = new FakeClock();
    let primaryUp = false;
    fake.setResponder((req) =>
      req.body.model === 'model-a' && !primaryUp ? { status: 500, errorMessage: 'internal error' } : { text: `answer from ${String(req.body.model)}` },
    );
    const { agent } = agentFor({ model: { api_key: KEY_A, max_retries: 1, fallbacks: [{ name: 'model-b' }] }, clock });
    const turn = run(agent, clock);
    await untilSleeping(clock);
    await clock.advance(1_000);
    const result = await turn;
    assert.equal(result.text, 'answer from model-b');
    assert.equal(result.note, '(answered by fallback model model-b: the primary failed with a server error)');
    assert.deepEqual(fake.requests.map((r) => r.body.model), ['model-a', 'model-a', 'model-b']);
    assert.equal(keyOf(fake.requests[2]!), 'not-needed', 'the fallback has no key of its own configured');

    primaryUp = true;
    const next = await run(agent, clock);
    assert.equal(next.text, 'answer from model-a');
    assert.equal(next.note, undefined);
  });

  test('primary 401: the fallback at once, without retries; the fallback keeps answering the rest of the turn', async () => {
    const clock = new FakeClock();
    fake.setResponder((req) => (req.body.model === 'model-a' ? { status: 401, errorMessage: 'bad key' } : { text: 'fallback answer' }));
    const { agent } = agentFor({
      model: { api_key: KEY_A, max_retries: 4, fallbacks: [{ name: 'model-b', api_keys: [KEY_B] }] },
      clock,
    });
    const result = await run(agent, clock);
    assert.equal(clock.pending, 0, 'no backoff sleep');
    assert.deepEqual(fake.requests.map((r) => [r.body.model, keyOf(r)]), [['model-a', KEY_A], ['model-b', KEY_B]]);
    assert.equal(result.text, 'fallback answer');
    assert.equal(result.note, '(answered by fallback model model-b: the primary was refused the API key)');
  });

  test('primary and fallback both down: the primary\'s message, that the fallbacks failed too, and no "answered by" line', async () => {
    const clock = new FakeClock();
    fake.setResponder(() => ({ status: 401, errorMessage: 'bad key' }));
    const { agent } = agentFor({ model: { api_key: KEY_A, max_retries: 2, fallbacks: [{ name: 'model-b', api_key: KEY_B }] }, clock });
    const result = await run(agent, clock);
    assert.equal(result.outcome, 'error');
    assert.equal(fake.requests.length, 2);
    assert.match(result.note ?? '', /^The model provider at .* rejected the API key sk-…1111 \(HTTP 401\): bad key\..* The fallback models failed too \(model-b was refused the API key\)\.$/);
    assert.ok(!(result.note ?? '').includes('answered by'));
  });

  test('a 404 model falls back; a plain 400 does not (it would fail on any model)', async () => {
    const clock = new FakeClock();
    fake.setResponder((req) => (req.body.model === 'model-a' ? { status: 404, errorMessage: 'The model does not exist' } : { text: 'b' }));
    const { agent } = agentFor({ model: { max_retries: 2, fallbacks: [{ name: 'model-b' }] }, clock });
    assert.equal((await run(agent, clock)).text, 'b');
    fake.setResponder(() => ({ status: 400, errorMessage: 'temperature too high' }));
    const bad = await run(agent, clock);
    assert.equal(bad.outcome, 'error');
    assert.deepEqual(fake.requests.slice(2).map((r) => r.body.model), ['model-a']);
    assert.match(bad.note ?? '', /rejected the request \(HTTP 400\): temperature too high/);
  });
});
