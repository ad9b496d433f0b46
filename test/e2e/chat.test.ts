import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { cli } from '../helpers/cli.js';

const canary = 'sk-CANARY-e2e-91b7c3';

test('hermes chat: streams answers, slash commands work, sessions are searchable, the key never leaks', { timeout: 30_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-chat-'));
  const fake = new FakeOpenAI();
  await fake.start();
  try {
    const dir = path.join(home, 'profiles', 'me');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, '.env'), `OPENAI_API_KEY=${canary}\n`);
    writeFileSync(
      path.join(dir, 'config.yaml'),
      `model:\n  base_url: ${fake.baseURL}\n  api_key: \${OPENAI_API_KEY}\n  max_retries: 0\nlogging:\n  level: trace\n`,
    );
    fake.enqueue(
      { chunks: ['The capital ', 'of France ', 'is Paris.'], chunkDelayMs: 30 },
      { status: 401, errorMessage: `Incorrect API key provided: ${canary}` },
    );
    const env = { HERMES_HOME: home, HOME: home };
    const res = await cli({ argv: ['-p', 'me', 'chat'], env, stdin: 'what is the capital of France?\n/status\nand again?\n/bogus\n' });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /The capital of France is Paris\./);
    // /status answers at once (control lane), whatever the turn before it is doing.
    assert.match(res.stdout, /Session: (none yet|[0-9a-f]{8})[\s\S]*Now: (idle|answering)[\s\S]*Model: gpt-4o-mini @ 127\.0\.0\.1/);
    assert.match(res.stdout, /api_key|OPENAI_API_KEY|key/i, 'the 401 is explained');
    assert.match(res.stdout, /Unknown command \/bogus/);
    assert.ok(!res.stdout.includes(canary) && !res.stderr.includes(canary), 'key printed to the terminal');
    // The model request carried the key as a bearer token: it was really used.
    assert.equal(fake.requests[0]?.headers['authorization'], `Bearer ${canary}`);

    const search = await cli({ argv: ['-p', 'me', 'sessions', 'search', 'Paris'], env });
    assert.equal(search.code, 0, search.stderr);
    assert.match(search.stdout, /\[Paris\]/);
    const list = await cli({ argv: ['-p', 'me', 'sessions', 'list'], env });
    assert.match(list.stdout, /me:terminal:local/);

    const logs = readdirSync(path.join(dir, 'logs'));
    assert.ok(logs.includes('gateway.log'));
    const log = logs.map((f) => readFileSync(path.join(dir, 'logs', f), 'utf8')).join('\n');
    assert.ok(log.length > 200, 'the run logged something');
    assert.ok(!log.includes(canary), 'the key reached the log file');
    // The model's error (which quotes the key) was logged, redacted: the check above could have failed.
    assert.match(log, /Incorrect API key provided: \*\*\*/);
    const show = await cli({ argv: ['-p', 'me', 'config', 'show'], env });
    assert.ok(!show.stdout.includes(canary));
  } finally {
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
});
