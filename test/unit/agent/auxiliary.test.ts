import assert from 'node:assert/strict';
import { test } from 'node:test';
import { auxiliaryClient, auxiliaryRoute, AuxiliaryError } from '../../../src/agent/auxiliary/client.js';
import { appConfigSchema } from '../../../src/app/config-schema.js';
import { FakeOpenAI } from '../../fakes/openai/server.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

test('auxiliary route: none without auxiliary.model; base_url and api_key fall back to model', () => {
  const plain = configSchema.parse({});
  assert.equal(auxiliaryRoute({ config: plain }), undefined);
  assert.equal(auxiliaryClient({ config: plain }), undefined);
  const config = configSchema.parse({ model: { base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-main', name: 'big' }, auxiliary: { model: { name: 'small', max_tokens: 50 } } });
  assert.deepEqual(auxiliaryRoute({ config }), { name: 'small', baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-main', requestTimeoutMs: 60_000, temperature: undefined, maxTokens: 50 });
  const own = configSchema.parse({ auxiliary: { model: { name: 'small', base_url: 'http://127.0.0.1:8/v1', api_key: 'sk-aux' } } });
  assert.equal(auxiliaryRoute({ config: own })?.baseURL, 'http://127.0.0.1:8/v1');
  assert.equal(auxiliaryRoute({ config: own })?.apiKey, 'sk-aux');
});

test('complete(): one non-streaming call with system and user messages and max_tokens; an empty answer is an AuxiliaryError', async () => {
  const fake = new FakeOpenAI();
  await fake.start();
  try {
    const complete = auxiliaryClient({ config: configSchema.parse({ auxiliary: { model: { name: 'small', base_url: fake.baseURL, api_key: 'sk-aux' } } }) });
    assert.ok(complete);
    fake.enqueue({ text: '  the answer  ' }, { text: '' });
    const signal = new AbortController().signal;
    assert.equal(await complete({ system: 'be brief', user: 'question', signal, maxTokens: 77 }), 'the answer');
    const body = fake.requests[0]?.body;
    assert.equal(body?.model, 'small');
    assert.notEqual(body?.stream, true);
    assert.equal(body?.['max_tokens'], 77);
    assert.deepEqual(body?.messages, [{ role: 'system', content: 'be brief' }, { role: 'user', content: 'question' }]);
    await assert.rejects(complete({ system: 's', user: 'u', signal }), AuxiliaryError);
    const aborted = AbortSignal.abort();
    await assert.rejects(complete({ system: 's', user: 'u', signal: aborted }));
    assert.equal(fake.requests.length, 2, 'an aborted signal sends nothing');
  } finally {
    await fake.close();
  }
});

test('complete(): onAttempt hears how each request ended: ok, or the failure reason', async () => {
  const fake = new FakeOpenAI();
  await fake.start();
  try {
    const complete = auxiliaryClient({ config: configSchema.parse({ auxiliary: { model: { name: 'small', base_url: fake.baseURL, api_key: 'sk-aux' } } }) });
    assert.ok(complete);
    const outcomes: string[] = [];
    const onAttempt = ({ outcome }: { outcome: string }): void => void outcomes.push(outcome);
    fake.enqueue({ status: 429, errorMessage: 'slow down' }, { text: 'fine' }, { status: 500, errorMessage: 'boom' });
    const signal = new AbortController().signal;
    await assert.rejects(complete({ system: 's', user: 'u', signal, onAttempt }));
    assert.equal(await complete({ system: 's', user: 'u', signal, onAttempt }), 'fine');
    await assert.rejects(complete({ system: 's', user: 'u', signal, onAttempt }));
    assert.deepEqual(outcomes, ['rate_limit', 'ok', 'server_error']);
  } finally {
    await fake.close();
  }
});
