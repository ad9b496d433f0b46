import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { createHttpServer } from '../../src/gateway/http/server.js';
import { systemClock } from '../../src/core/clock.js';

test('webhook routes are replaced, added and removed while the server listens; /healthz and 404s are unaffected', async () => {
  const http = createHttpServer({
    host: '127.0.0.1',
    port: 0,
    bodyLimitBytes: 1024,
    logger: pino({ level: 'silent' }),
    health: () => ({ status: 'ok', profile: 'work', uptimeSeconds: 0, adapters: [] }),
    clock: systemClock,
  });
  const hook = (answer: string) => ({ app }: { app: FastifyInstance }) => {
    app.post('/hook', async (request) => ({ answer, got: request.body }));
  };
  assert.equal(await http.webhooks.mount({ name: 'telegram', register: hook('first instance') }), true);
  assert.equal(await http.webhooks.mount({ name: 'slack', register: () => undefined }), false, 'an adapter without routes mounts nothing');
  const { host, port } = await http.listen();
  const post = async (body: string): Promise<{ status: number; text: string }> => {
    const res = await fetch(`http://${host}:${port}/hook?x=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    return { status: res.status, text: await res.text() };
  };
  try {
    assert.deepEqual(await post('{"n":1}'), { status: 200, text: '{"answer":"first instance","got":{"n":1}}' });
    await http.webhooks.mount({ name: 'telegram', register: hook('after reload') });
    assert.deepEqual(await post('{"n":2}'), { status: 200, text: '{"answer":"after reload","got":{"n":2}}' });
    assert.equal((await post('x'.repeat(2000))).status, 413, 'the body limit holds in platform scopes too');
    await http.webhooks.mount({ name: 'discord', register: ({ app }) => app.get('/discord', async () => 'new platform') });
    assert.equal(await (await fetch(`http://${host}:${port}/discord`)).text(), 'new platform');
    await http.webhooks.unmount({ name: 'telegram' });
    assert.equal((await post('{}')).status, 404);
    assert.equal((await fetch(`http://${host}:${port}/healthz`)).status, 200);
    assert.throws(() => http.webhooks.mount({ name: 'telegram', register: () => { throw new Error('platforms.telegram.webhook.secret_token is not set'); } }), /secret_token/);
  } finally {
    await http.close();
  }
});
