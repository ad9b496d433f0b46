import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { AIAgent } from '../../../../src/agent/agent.js';
import { routeFromConfig } from '../../../../src/agent/route/from-config.js';
import { validateConfig } from '../../../../src/config/validate.js';
import { ToolRegistry } from '../../../../src/tools/registry.js';
import { FakeOpenAI } from '../../../fakes/openai/server.js';
import { FakeClock } from '../../../helpers/fake-clock.js';
import { toolContextFor } from '../support.js';
import { appConfigSchema } from '../../../../src/app/config-schema.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

test("a turn's chosen model: a route model starts on its own target (keys, endpoint); another name goes to the primary's endpoint with its keys; the next turn without one is back on the primary", async () => {
  const fake = new FakeOpenAI();
  await fake.start();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-chosen-'));
  try {
    const clock = new FakeClock();
    const tree = { model: { base_url: fake.baseURL, name: 'primary', api_key: 'sk-primary-key-000001', max_retries: 0, fallbacks: [{ name: 'backup', api_key: 'sk-backup-key-000002' }] } };
    const { config } = validateConfig({ schema: configSchema,  tree, file: 'test' });
    assert.ok(config);
    const route = routeFromConfig({ config, clock });
    const agent = new AIAgent({ route, model: 'primary', registry: new ToolRegistry({ tools: [] }), maxIterations: 3, maxRetries: 0, maxParallel: 1, clock, requestTimeoutMs: 60_000 });
    fake.setResponder(() => ({ text: 'ok' }));
    const run = (model?: string): Promise<unknown> =>
      agent.run({ systemPrompt: 's', history: [], userText: 'hi', model, signal: new AbortController().signal, onTextDelta: () => {}, onMessage: () => {}, toolContext: toolContextFor({ workspace: dir, clock }) });
    const sent = (): [string | undefined, string] => {
      const last = fake.requests.at(-1);
      return [last?.body.model, String(last?.headers.authorization ?? '')];
    };
    await run('backup');
    assert.deepEqual(sent(), ['backup', 'Bearer sk-backup-key-000002']);
    await run('elsewhere');
    assert.deepEqual(sent(), ['elsewhere', 'Bearer sk-primary-key-000001']);
    await run();
    assert.deepEqual(sent(), ['primary', 'Bearer sk-primary-key-000001']);

    // A chosen model that fails falls back along the route (the primary after a chosen fallback).
    fake.setResponder((req) => (req.body.model === 'elsewhere' ? { status: 404, errorMessage: 'no such model' } : { text: 'ok' }));
    await run('elsewhere');
    assert.deepEqual(sent(), ['backup', 'Bearer sk-backup-key-000002']);
  } finally {
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
