import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import OpenAI from 'openai';
import { z } from 'zod';
import type { AgentLogger } from '../../../src/agent/errors.js';
import { defineTool } from '../../../src/tools/tool.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { runTurn, sleep, startRig, type Rig } from './support.js';

interface Entry {
  level: 'debug' | 'warn';
  obj: Record<string, unknown>;
  msg: string | undefined;
}

/** A logger that keeps every entry. */
function captureLogger(entries: Entry[]): AgentLogger {
  const keep = (level: Entry['level']) => (obj: object, msg?: string): void => {
    entries.push({ level, obj: { ...obj }, msg });
  };
  return { debug: keep('debug'), warn: keep('warn') };
}

const noop = defineTool({ name: 'noop', description: 'does nothing', input: z.object({}), parallel: 'safe', handler: async () => '' });

describe('AIAgent logging', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  test('each request is logged at debug without key or content; a retried error is logged with the SDK error', async () => {
    const entries: Entry[] = [];
    const clock = new FakeClock();
    rig = await startRig({ clock, maxRetries: 1, tools: [noop], logger: captureLogger(entries) });
    rig.fake.enqueue({ status: 503, errorMessage: 'upstream overloaded right now' }, { text: 'fine' });
    const turn = runTurn({ rig, userText: 'a private question', clock });
    for (let i = 0; i < 400 && clock.pending === 0; i++) await sleep(5);
    await clock.advance(1_000);
    assert.equal((await turn).result.outcome, 'final');

    const requests = entries.filter((e) => e.msg === 'model request');
    assert.deepEqual(
      requests.map((e) => e.obj),
      [0, 1].map((attempt) => ({ model: 'fake-model', messages: 2, tools: 1, attempt })),
    );
    assert.ok(requests.every((e) => e.level === 'debug'));
    const logged = JSON.stringify(requests);
    assert.ok(!logged.includes('private question') && !logged.includes('sk-test'), logged);

    const failure = entries.find((e) => e.msg === 'model call failed; retrying');
    assert.equal(failure?.level, 'warn');
    assert.equal(failure.obj['reason'], 'overloaded');
    const err = failure.obj['err'];
    assert.ok(err instanceof OpenAI.APIError, 'the SDK error itself is logged');
    assert.equal(err.status, 503);
    assert.match(err.message, /upstream overloaded right now/);
  });

  test('an error that ends the turn is logged at warn with the SDK error', async () => {
    const entries: Entry[] = [];
    rig = await startRig({ maxRetries: 2, logger: captureLogger(entries) });
    rig.fake.enqueue({ status: 401, errorMessage: 'Incorrect API key provided: sk-test-key-123456' });
    assert.equal((await runTurn({ rig, userText: 'hi' })).result.outcome, 'error');
    const failure = entries.find((e) => e.msg === 'model call failed');
    assert.equal(failure?.level, 'warn');
    assert.equal(failure.obj['reason'], 'auth');
    const err = failure.obj['err'];
    assert.ok(err instanceof OpenAI.AuthenticationError);
    // The raw message reaches the logger; the gateway's logger redacts secrets.
    assert.match(err.message, /Incorrect API key provided/);
  });
});
