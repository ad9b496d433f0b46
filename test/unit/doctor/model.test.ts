import assert from 'node:assert/strict';
import { test } from 'node:test';
import { modelEndpointCheck } from '../../../src/doctor/model.js';
import { resolveProfile } from '../../../src/home/profile.js';
import { systemClock } from '../../../src/core/clock.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { configOf, tinyServer } from './support.js';

const profile = resolveProfile({ hermesHome: '/tmp/hermes-doctor-unit' });

test('401 from /models: ✗ that the key was refused, with where to fix it', async () => {
  const server = await tinyServer((_req, res) => res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"bad key"}}'));
  try {
    const check = await modelEndpointCheck({ config: configOf({ model: { base_url: `${server.url}/v1/`, api_key: 'sk-wrong' } }), profile, clock: systemClock });
    assert.equal(check.status, 'fail');
    assert.match(check.detail, /refused the API key \(HTTP 401\)/);
    assert.match(check.fix ?? '', /model\.api_key .*OPENAI_API_KEY/);
    assert.equal(server.requests[0]?.authorization, 'Bearer sk-wrong');
  } finally {
    await server.close();
  }
});

test('no answer within the limit (on the injected clock): ✗ "no answer within 3s"', async () => {
  const server = await tinyServer(() => undefined); // accepts, never answers
  try {
    const clock = new FakeClock();
    const checking = modelEndpointCheck({ config: configOf({ model: { base_url: `${server.url}/v1`, api_key: 'k' } }), profile, clock });
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await clock.advance(3_000);
    const check = await checking;
    assert.equal(check.status, 'fail');
    assert.match(check.detail, /127\.0\.0\.1:\d+: no answer within 3s/);
    assert.match(check.fix ?? '', /did not answer within 3s/);
  } finally {
    await server.close();
  }
});

test('404 on /models is a "!" (some servers do not list models); a model not in the list is a "!" too', async () => {
  const lists = await tinyServer((req, res) => {
    if (req.url === '/v1/models') res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"id":"llama3"},{"id":"qwen"}]}');
    else res.writeHead(404).end();
  });
  try {
    const missing = await modelEndpointCheck({ config: configOf({ model: { base_url: `${lists.url}/v1`, api_key: 'k', name: 'gpt-4o' } }), profile, clock: systemClock });
    assert.equal(missing.status, 'warn');
    assert.match(missing.detail, /does not list model "gpt-4o" \(it has llama3, qwen\)/);
    const ok = await modelEndpointCheck({ config: configOf({ model: { base_url: `${lists.url}/v1`, api_key: 'k', name: 'qwen' } }), profile, clock: systemClock });
    assert.equal(ok.status, 'ok');
    assert.match(ok.detail, /2 models, "qwen" among them/);
    const notFound = await modelEndpointCheck({ config: configOf({ model: { base_url: lists.url, api_key: 'k' } }), profile, clock: systemClock });
    assert.equal(notFound.status, 'warn');
    assert.match(notFound.detail, /is 404/);
  } finally {
    await lists.close();
  }
});

test('the official API without a key: ✗ before any request, saying where to put the key', async () => {
  const check = await modelEndpointCheck({ config: configOf({}), profile, clock: systemClock });
  assert.equal(check.status, 'fail');
  assert.match(check.detail, /needs a key/);
  assert.match(check.fix ?? '', /OPENAI_API_KEY/);
});
