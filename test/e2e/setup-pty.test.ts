import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import pty from 'node-pty';
import { nodeArgsFor } from '../helpers/entry.js';
import { FakeOpenAI } from '../fakes/openai/server.js';

const repo = path.resolve(import.meta.dirname, '../..');
const fake = new FakeOpenAI();
const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-setup-pty-'));
before(async () => {
  await fake.start();
  fake.models = ['fake-model', 'other-model'];
  fake.setResponder(() => ({ text: 'OK' }));
});
after(async () => {
  await fake.close();
  rmSync(home, { recursive: true, force: true });
});

const DOWN = '\x1b[B';
const KEY = 'sk-typed-in-the-pty-0815';

/** Terminal output without its escape sequences (colours, cursor moves). */
function plain(text: string): string {
  return text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');
}

/** `hermes ARGS` in a pseudo-terminal (output without escape sequences); `until` waits for output matching a pattern (in what came after the last match). */
function spawnCli(params: { args: string[]; home?: string }): { write: (text: string) => void; until: (pattern: RegExp) => Promise<void>; output: () => string; exit: Promise<number> } {
  const child = pty.spawn(process.execPath, [...nodeArgsFor(path.join(repo, 'src/cli/main.ts')), ...params.args], {
    cwd: repo,
    cols: 120,
    rows: 40,
    env: { PATH: process.env['PATH'] ?? '', HERMES_HOME: params.home ?? home, HOME: params.home ?? home, TERM: 'xterm-256color' },
  });
  let out = '';
  let seen = 0;
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.onData((data) => {
    out += data;
    const shown = plain(out);
    for (const waiter of [...waiters]) {
      if (waiter.pattern.test(shown.slice(seen))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        seen = shown.length;
        waiter.resolve();
      }
    }
  });
  const exit = new Promise<number>((resolve) => child.onExit(({ exitCode }) => resolve(exitCode)));
  const timer = setTimeout(() => child.kill(), 20_000);
  void exit.then(() => clearTimeout(timer));
  return {
    write: (text) => child.write(text),
    output: () => plain(out),
    exit,
    until: (pattern) =>
      new Promise<void>((resolve, reject) => {
        const shown = plain(out);
        if (pattern.test(shown.slice(seen))) {
          seen = shown.length;
          resolve();
          return;
        }
        waiters.push({ pattern, resolve });
        void exit.then(() => reject(new Error(`exited before ${String(pattern)}:\n${plain(out)}`)));
      }),
  };
}

test('interactive `hermes setup model` in a pty: the URL typed, the key masked, the model picked with the arrow keys', async () => {
  const cli = spawnCli({ args: ['setup', 'model'] });
  await cli.until(/Which model provider\?[\s\S]*Enter/);
  cli.write(`${DOWN}${DOWN}${DOWN}`);
  await cli.until(/● Another OpenAI-compatible server/);
  cli.write('\r');
  await cli.until(/Base URL of the server/);
  cli.write(`${fake.baseURL}\r`);
  await cli.until(/API key[\s\S]*_/);
  cli.write(`${KEY}\r`);
  await cli.until(/Which model\? \(2 listed\)[\s\S]*Enter/);
  cli.write(DOWN);
  await cli.until(/● other-model/);
  cli.write('\r');
  const code = await cli.exit;
  const out = cli.output();
  assert.equal(code, 0, out);
  assert.ok(!out.includes(KEY), 'the key is not echoed');
  assert.match(out, /▪{10,}/, 'the key shows as mask characters');
  assert.match(out, /✓ other-model at http:\/\/127\.0\.0\.1:\d+\/v1 answered/);
  assert.equal(fake.modelListings.length, 1, 'the list came from GET /models');
  assert.equal(fake.requests.length, 1);
  assert.equal(fake.requests[0]?.body.model, 'other-model');
  assert.equal(fake.requests[0]?.headers.authorization, `Bearer ${KEY}`);
  const yaml = readFileSync(path.join(home, 'config.yaml'), 'utf8');
  assert.match(yaml, /name: other-model/);
  assert.ok(!yaml.includes(KEY));
  assert.match(readFileSync(path.join(home, '.env'), 'utf8'), new RegExp(`^OPENAI_API_KEY=${KEY}$`, 'm'));
  assert.equal(statSync(path.join(home, '.env')).mode & 0o777, 0o600);
});

test('`hermes chat` without a model offers the setup on a terminal: yes runs it, then the chat starts with that model', async () => {
  const fresh = mkdtempSync(path.join(os.tmpdir(), 'hermes-chat-offer-'));
  try {
    const cli = spawnCli({ args: ['chat'], home: fresh });
    await cli.until(/No model is configured[\s\S]*Set up a model now[\s\S]*No/);
    cli.write('y');
    await cli.until(/Which model provider\?[\s\S]*Enter/);
    cli.write(`${DOWN}${DOWN}${DOWN}`);
    await cli.until(/● Another OpenAI-compatible server/);
    cli.write(`\r`);
    await cli.until(/Base URL of the server/);
    cli.write(`${fake.baseURL}\r`);
    await cli.until(/API key[\s\S]*_/);
    cli.write(`sk-chat-offer\r`);
    await cli.until(/Which model\? \(2 listed\)[\s\S]*Enter/);
    cli.write('\r');
    await cli.until(/hermes chat — profile "default", fake-model @ 127\.0\.0\.1:\d+/);
    cli.write('\x04');
    assert.equal(await cli.exit, 0, cli.output());
    assert.match(readFileSync(path.join(fresh, 'config.yaml'), 'utf8'), /name: fake-model/);
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
});

test('`hermes chat` without a model: "no" at the offer ends with the problem and `hermes setup` named (exit 78)', async () => {
  const fresh = mkdtempSync(path.join(os.tmpdir(), 'hermes-chat-offer-'));
  try {
    const cli = spawnCli({ args: ['chat'], home: fresh });
    await cli.until(/Set up a model now[\s\S]*No/);
    cli.write('\r');
    assert.equal(await cli.exit, 78);
    assert.match(cli.output(), /error: No model is configured[\s\S]*hermes setup/);
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
});
