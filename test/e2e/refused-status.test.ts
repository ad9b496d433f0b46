import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { cli } from '../helpers/cli.js';
import { nodeArgsFor } from '../helpers/entry.js';
import { closedPort } from '../helpers/ports.js';

const repo = path.resolve(import.meta.dirname, '../..');

/**
 * The report, as a user meets it: `hermes gateway run` with Telegram's API at a port nothing listens on. Each
 * retry is one warn line with the cause and no stack in logs/gateway.log, and `hermes status` names the cause too.
 */
test('gateway run against a refused Telegram API: one log line per retry with the cause, no stack; `hermes status` names the cause', { timeout: 60_000 }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-refused-'));
  const model = new FakeOpenAI();
  await model.start();
  const port = await closedPort();
  writeFileSync(
    path.join(home, 'config.yaml'),
    `model:\n  base_url: ${model.baseURL}\n  name: fake-model\n  api_key: sk-refused\ngateway:\n  http:\n    port: 0\nplatforms:\n  telegram:\n    enabled: true\n    token: "123:refused-token"\n    api_root: http://127.0.0.1:${port}\n`,
  );
  const env = { HERMES_HOME: home, HOME: home };
  const child = spawn(process.execPath, [...nodeArgsFor(path.join(repo, 'src/cli/main.ts')), 'gateway', 'run'], { cwd: repo, env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const cause = `connection refused 127.0.0.1:${port}`;
    const deadline = Date.now() + 30_000;
    let status = await cli({ argv: ['status'], env });
    while (!status.stdout.includes(`telegram: backing-off`)) {
      assert.ok(Date.now() < deadline, `${status.stdout}\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = await cli({ argv: ['status'], env });
    }
    assert.match(status.stdout, new RegExp(`^ {2}telegram: backing-off — .*\\(${cause.replace(/\./g, '\\.')}\\)$`, 'm'));
    child.kill('SIGTERM');
    assert.equal(await exited, 0, output);
    const lines = readFileSync(path.join(home, 'logs', 'gateway.log'), 'utf8').split('\n').filter((line) => line !== '');
    const failures = lines.filter((line) => line.includes('"adapter failed'));
    assert.ok(failures.length >= 1, lines.join('\n'));
    for (const failure of failures) {
      const record = JSON.parse(failure) as { level: number; msg: string; cause?: string; err?: unknown };
      assert.equal(record.level, 40);
      assert.equal(record.cause, cause);
      assert.match(record.msg, new RegExp(`^adapter failed: ${cause.replace(/\./g, '\\.')}; restarting in`));
      assert.equal(record.err, undefined);
    }
    assert.ok(!lines.some((line) => line.includes('"stack"')), `a stack was logged:\n${lines.join('\n')}`);
    assert.ok(!output.includes('    at '), `a stack reached the terminal:\n${output}`);
  } finally {
    child.kill('SIGKILL');
    await model.close();
    rmSync(home, { recursive: true, force: true });
  }
});
