import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { endQuietlyOnBrokenPipe, outliveBrokenStdout } from '../../../src/cli/broken-pipe.js';
import { nodeArgsFor } from '../../helpers/entry.js';
import { closedPort } from '../../helpers/ports.js';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Runs `hermes <args>` with stdout closed after its first chunk (as `| head -1` does); the exit code and stderr. */
async function runClosingStdout(params: { home: string; args: readonly string[] }): Promise<{ code: number | null; stderr: string; firstChunk: string }> {
  const child = spawn(process.execPath, [...nodeArgsFor(path.join(repo, 'src/cli/main.ts')), ...params.args], {
    cwd: repo,
    env: { ...process.env, HERMES_HOME: params.home, HOME: params.home, OPENAI_API_KEY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let firstChunk = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.once('data', (d: Buffer) => {
    firstChunk = d.toString();
    child.stdout.destroy();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  return { code, stderr, firstChunk };
}

test('hermes doctor | head -1: the reader going away ends doctor quietly with status 0 (not its "problems found" status), no stack', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-epipe-'));
  try {
    const port = await closedPort();
    // The model endpoint is refused: doctor alone would exit 1 after printing its problems.
    writeFileSync(path.join(home, 'config.yaml'), `model:\n  base_url: http://127.0.0.1:${port}/v1\n  name: m\n`);
    const result = await runClosingStdout({ home, args: ['doctor'] });
    assert.match(result.firstChunk, /^hermes doctor: profile "default"/);
    assert.equal(result.stderr, '');
    assert.equal(result.code, 0);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('hermes logs | head -1 on a long log: status 0, nothing on stderr', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-epipe-'));
  try {
    mkdirSync(path.join(home, 'logs'), { recursive: true });
    const line = JSON.stringify({ level: 30, time: '2026-01-01T00:00:00.000Z', msg: 'x'.repeat(200) });
    writeFileSync(path.join(home, 'logs', 'gateway.log'), `${Array.from({ length: 2000 }, () => line).join('\n')}\n`);
    const result = await runClosingStdout({ home, args: ['logs', '-n', '2000', '--json'] });
    assert.equal(result.stderr, '');
    assert.equal(result.code, 0);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test('endQuietlyOnBrokenPipe: EPIPE on stdout exits 0; other stdout errors and a broken stderr do not end the process; outliveBrokenStdout exempts a daemon', () => {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const exits: number[] = [];
  endQuietlyOnBrokenPipe({ stdout, stderr, exit: (code) => exits.push(code) });
  stderr.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
  stdout.emit('error', Object.assign(new Error('write ENOSPC'), { code: 'ENOSPC' }));
  assert.deepEqual(exits, []);
  stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
  assert.deepEqual(exits, [0]);
  outliveBrokenStdout();
  stdout.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
  assert.deepEqual(exits, [0]);
});
