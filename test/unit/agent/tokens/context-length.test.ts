import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { describeContextLength, resolveContextLength } from '../../../../src/agent/tokens/context-length.js';
import { DEFAULT_CONTEXT_LENGTH, knownContextLength } from '../../../../src/agent/tokens/known-models.js';
import { contextLengthFromModels, visionFromModels } from '../../../../src/agent/tokens/models-metadata.js';
import { ModelContext } from '../../../../src/agent/tokens/model-context.js';
import { systemClock } from '../../../../src/core/clock.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { FakeOpenAI } from '../../../fakes/openai/server.js';

describe('context length', () => {
  let fake: FakeOpenAI | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });

  const started = async (): Promise<FakeOpenAI> => {
    fake = new FakeOpenAI();
    await fake.start();
    return fake;
  };

  test('model.context_length from the config wins, without asking the endpoint', async () => {
    const server = await started();
    server.modelMetadata = { 'fake-model': { context_length: 4000 } };
    const length = await resolveContextLength({ model: { name: 'fake-model', base_url: server.baseURL, context_length: 9000 }, clock: systemClock });
    assert.deepEqual(length, { tokens: 9000, source: 'config' });
    assert.equal(server.modelListings.length, 0);
  });

  test("from the endpoint's GET /models metadata (with the API key)", async () => {
    const server = await started();
    server.modelMetadata = { 'fake-model': { context_length: 4000 } };
    const length = await resolveContextLength({ model: { name: 'fake-model', base_url: server.baseURL, api_key: 'sk-test' }, clock: systemClock });
    assert.deepEqual(length, { tokens: 4000, source: 'endpoint' });
    assert.equal(server.modelListings[0]?.headers['authorization'], 'Bearer sk-test');
    assert.equal(describeContextLength({ length }), "4,000 tokens (from the endpoint's /models)");
  });

  test('a profile with only model.api_keys sends the first of them to GET /models', async () => {
    const server = await started();
    server.modelMetadata = { 'fake-model': { max_model_len: 8192 } };
    const length = await resolveContextLength({ model: { name: 'fake-model', base_url: server.baseURL, api_keys: ['sk-pool-one', 'sk-pool-two'] }, clock: systemClock });
    assert.deepEqual(length, { tokens: 8192, source: 'endpoint' });
    assert.equal(server.modelListings[0]?.headers['authorization'], 'Bearer sk-pool-one');
  });

  test('no metadata for the model: the known-models table, else 32,768', async () => {
    const server = await started();
    server.models = ['gpt-4o', 'my-local'];
    server.modelMetadata = { other: { context_length: 4000 } };
    assert.deepEqual(await resolveContextLength({ model: { name: 'gpt-4o', base_url: server.baseURL }, clock: systemClock }), { tokens: 128_000, source: 'default' });
    assert.deepEqual(await resolveContextLength({ model: { name: 'my-local', base_url: server.baseURL }, clock: systemClock }), { tokens: DEFAULT_CONTEXT_LENGTH, source: 'default' });
  });

  test('an endpoint that is down or never answers gives the default (timeout on the injected clock)', async () => {
    const down = await resolveContextLength({ model: { name: 'gpt-4o', base_url: 'http://127.0.0.1:9/v1' }, clock: systemClock });
    assert.deepEqual(down, { tokens: 128_000, source: 'default' });
    const clock = new FakeClock();
    let asked = false;
    const hanging = resolveContextLength({
      model: { name: 'x', base_url: 'http://127.0.0.1:9/v1' },
      clock,
      timeoutMs: 5_000,
      fetch: (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          asked = true;
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        }),
    });
    while (!asked) await new Promise((resolve) => setTimeout(resolve, 1));
    await clock.advance(5_000);
    assert.deepEqual(await hanging, { tokens: DEFAULT_CONTEXT_LENGTH, source: 'default' });
  });

  test("the fields real servers use: OpenRouter, vLLM, Groq, Mistral/LM Studio, llama.cpp", () => {
    const body = (entry: Record<string, unknown>): unknown => ({ object: 'list', data: [{ id: 'other', context_length: 1 }, { id: 'm', ...entry }] });
    assert.equal(contextLengthFromModels({ body: body({ context_length: 131072, top_provider: { context_length: 65536 } }), model: 'm' }), 131072);
    assert.equal(contextLengthFromModels({ body: body({ top_provider: { context_length: 65536 } }), model: 'm' }), 65536);
    assert.equal(contextLengthFromModels({ body: body({ max_model_len: 32768 }), model: 'm' }), 32768);
    assert.equal(contextLengthFromModels({ body: body({ context_window: 131072 }), model: 'm' }), 131072);
    assert.equal(contextLengthFromModels({ body: body({ max_context_length: 8192 }), model: 'm' }), 8192);
    // LM Studio's /api/v0/models: a model loaded with less context than it supports runs with the loaded figure.
    assert.equal(contextLengthFromModels({ body: body({ state: 'loaded', max_context_length: 131072, loaded_context_length: 4096 }), model: 'm' }), 4096);
    assert.equal(contextLengthFromModels({ body: body({ meta: { n_ctx: 32768, n_ctx_train: 262144 } }), model: 'm' }), 32768);
    // The training context alone says nothing about what the server runs with.
    assert.equal(contextLengthFromModels({ body: body({ meta: { n_ctx_train: 262144 } }), model: 'm' }), undefined);
    assert.equal(contextLengthFromModels({ body: body({ context_length: 'lots' }), model: 'm' }), undefined);
    assert.equal(contextLengthFromModels({ body: body({ context_length: -5 }), model: 'm' }), undefined);
    assert.equal(contextLengthFromModels({ body: { error: 'nope' }, model: 'm' }), undefined);
    assert.equal(contextLengthFromModels({ body: body({ context_length: 8192 }), model: 'absent' }), undefined);
    const llamaCpp = { data: [{ id: 'unsloth/Qwen3-GGUF', aliases: ['qwen3'], meta: { n_ctx: 16384 } }, { id: 'other', meta: { n_ctx: 4096 } }] };
    assert.equal(contextLengthFromModels({ body: llamaCpp, model: 'qwen3' }), 16384, 'an alias names the model');
    assert.equal(contextLengthFromModels({ body: { data: [{ id: 'served', max_model_len: 8192 }] }, model: 'anything' }), 8192, 'the only model of a single-model server');
  });

  test('known models: longest prefix wins, provider prefix ignored', () => {
    assert.equal(knownContextLength({ model: 'gpt-4o-mini' }), 128_000);
    assert.equal(knownContextLength({ model: 'gpt-4' }), 8_192);
    assert.equal(knownContextLength({ model: 'gpt-4-turbo-preview' }), 128_000);
    assert.equal(knownContextLength({ model: 'anthropic/claude-3.5-sonnet' }), 200_000);
    assert.equal(knownContextLength({ model: 'qwen2.5-7b' }), undefined);
  });

  test('ModelContext: the default at once, the endpoint\'s figure once resolved; asked once however often resolve is called', async () => {
    const server = await started();
    server.modelMetadata = { 'fake-model': { context_window: 65_536 } };
    const context = new ModelContext({ model: { name: 'fake-model', base_url: server.baseURL }, clock: systemClock });
    assert.deepEqual(context.current(), { tokens: DEFAULT_CONTEXT_LENGTH, source: 'default' });
    const [a, b] = await Promise.all([context.resolve(), context.resolve()]);
    assert.deepEqual(a, { tokens: 65_536, source: 'endpoint' });
    assert.deepEqual(b, a);
    assert.deepEqual(context.current(), { tokens: 65_536, source: 'endpoint' });
    assert.equal(server.modelListings.length, 1);
  });

  test("ModelContext: another model (a session's /model choice) reads its own listed figure, else the table, else the configured model's", async () => {
    const server = await started();
    server.models = ['fake-model', 'small-model', 'unlisted-figure'];
    server.modelMetadata = { 'fake-model': { context_length: 65_536 }, 'small-model': { max_model_len: 8_192 } };
    const context = new ModelContext({ model: { name: 'fake-model', base_url: server.baseURL }, clock: systemClock });
    await context.resolve();
    assert.deepEqual(context.current({ model: 'small-model' }), { tokens: 8_192, source: 'endpoint' });
    assert.deepEqual(context.current({ model: 'gpt-4' }), { tokens: 8_192, source: 'default' }, 'not listed: the known-models table');
    assert.deepEqual(context.current({ model: 'unlisted-figure' }), { tokens: 65_536, source: 'endpoint' }, 'nothing known: the configured model’s');
    assert.deepEqual(context.current({ model: 'fake-model' }), context.current());
    const configured = new ModelContext({ model: { name: 'fake-model', base_url: server.baseURL, context_length: 20_000 }, clock: systemClock });
    assert.deepEqual(configured.current({ model: 'qwen-local' }), { tokens: 20_000, source: 'config' });
  });

  test('ModelContext: an aborted signal (gateway stopping) keeps the default and sends nothing', async () => {
    const server = await started();
    server.modelMetadata = { 'fake-model': { context_length: 4000 } };
    const controller = new AbortController();
    controller.abort();
    const context = new ModelContext({ model: { name: 'fake-model', base_url: server.baseURL }, clock: systemClock });
    assert.deepEqual(await context.resolve({ signal: controller.signal }), { tokens: DEFAULT_CONTEXT_LENGTH, source: 'default' });
    assert.equal(server.modelListings.length, 0);
  });
});

test("visionFromModels: OpenRouter's input_modalities or modality, LiteLLM's supports_vision, a capabilities list; nothing said is undefined", () => {
  const body = {
    data: [
      { id: 'or/seeing', architecture: { input_modalities: ['text', 'image'] } },
      { id: 'or/blind', architecture: { input_modalities: ['text'] } },
      { id: 'or/old', architecture: { modality: 'text+image->text' } },
      { id: 'lite', model_info: { supports_vision: false } },
      { id: 'ollama', capabilities: ['completion', 'vision'] },
      { id: 'plain', context_length: 8192 },
    ],
  };
  const vision = (model: string): boolean | undefined => visionFromModels({ body, model, exact: true });
  assert.deepEqual(['or/seeing', 'or/blind', 'or/old', 'lite', 'ollama', 'plain', 'missing'].map(vision), [true, false, true, false, true, undefined, undefined]);
});
