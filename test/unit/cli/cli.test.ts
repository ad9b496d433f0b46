import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { openStore } from '../../../src/store/sqlite-store.js';
import { systemClock } from '../../../src/core/clock.js';
import { cli } from '../../helpers/cli.js';

const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-cli-'));
after(() => rmSync(home, { recursive: true, force: true }));
const env = { HERMES_HOME: home, HOME: home };
const canary = 'sk-CANARY-5f2e9c1d7a';

function profileDir(name: string, files: { config?: string; env?: string }): string {
  const dir = path.join(home, 'profiles', name);
  mkdirSync(dir, { recursive: true });
  if (files.config !== undefined) writeFileSync(path.join(dir, 'config.yaml'), files.config);
  if (files.env !== undefined) writeFileSync(path.join(dir, '.env'), files.env);
  return dir;
}

describe('hermes CLI', () => {
  test('--version and help', async () => {
    const version = await cli({ argv: ['--version'], env });
    assert.equal(version.code, 0);
    assert.match(version.stdout, /^\d+\.\d+\.\d+/);
    const help = await cli({ argv: ['help'], env });
    assert.equal(help.code, 0);
    assert.match(help.stdout + help.stderr, /gateway[\s\S]*config[\s\S]*sessions[\s\S]*chat/);
  });

  test('config validate: a good config is valid, a bad one names file, key path, expected and found (exit 78)', async () => {
    profileDir('good', { config: 'gateway:\n  busy_policy: queue\n' });
    const ok = await cli({ argv: ['-p', 'good', 'config', 'validate'], env });
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /valid/);

    const dir = profileDir('bad', { config: 'gateway:\n  busy_policy: sometimes\n' });
    const bad = await cli({ argv: ['-p', 'bad', 'config', 'validate'], env });
    assert.equal(bad.code, 78);
    assert.ok(bad.stderr.includes(path.join(dir, 'config.yaml')), bad.stderr);
    assert.match(bad.stderr, /gateway\.busy_policy/);
    assert.match(bad.stderr, /interrupt/);
    assert.match(bad.stderr, /sometimes/);
    assert.doesNotMatch(bad.stderr, /\n\s+at /, 'no stack trace');
  });

  test('malformed YAML, unreadable .env and unknown keys', async () => {
    profileDir('yaml', { config: 'model:\n  name: [unclosed\n' });
    const yaml = await cli({ argv: ['-p', 'yaml', 'config', 'validate'], env });
    assert.equal(yaml.code, 78);
    assert.match(yaml.stderr, /config\.yaml/);
    assert.match(yaml.stderr, /line \d+|:\d+:\d+/);

    const dir = profileDir('envdir', { config: '' });
    mkdirSync(path.join(dir, '.env'));
    const envDir = await cli({ argv: ['-p', 'envdir', 'config', 'validate'], env });
    assert.equal(envDir.code, 78);
    assert.match(envDir.stderr, /\.env/);

    profileDir('unknown', { config: 'stream:\n  edit_intervall: 2s\n' });
    const unknown = await cli({ argv: ['-p', 'unknown', 'config', 'validate'], env });
    assert.equal(unknown.code, 0);
    assert.match(unknown.stderr, /warning: .*edit_intervall/);
  });

  test('config show masks secrets from .env, and errors never print them', async () => {
    profileDir('secret', { config: 'model:\n  api_key: ${OPENAI_API_KEY}\n  base_url: http://127.0.0.1:9/v1\n', env: `OPENAI_API_KEY=${canary}\n` });
    const show = await cli({ argv: ['-p', 'secret', 'config', 'show'], env });
    assert.equal(show.code, 0, show.stderr);
    assert.match(show.stdout, /api_key: "?\*\*\*"?/);
    assert.ok(!show.stdout.includes(canary));

    profileDir('secret-bad', { config: 'model:\n  max_retries: ${OPENAI_API_KEY}\n', env: `OPENAI_API_KEY=${canary}\n` });
    const bad = await cli({ argv: ['-p', 'secret-bad', 'config', 'validate'], env });
    assert.equal(bad.code, 78);
    assert.ok(!bad.stderr.includes(canary), bad.stderr);
  });

  test('a platform is enabled only by enabled: true', async () => {
    profileDir('tokens', { config: 'platforms:\n  telegram:\n    token: 123:abc\n' });
    const res = await cli({ argv: ['-p', 'tokens', 'config', 'validate'], env });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /platforms enabled: none/);
  });

  test('bad profile name and unknown command are one clear line each', async () => {
    const badName = await cli({ argv: ['-p', 'Bad Name!', 'config', 'validate'], env });
    assert.notEqual(badName.code, 0);
    assert.match(badName.stderr, /^error: invalid profile name/);
    assert.match(badName.stderr, /hint: /);
    const unknown = await cli({ argv: ['frobnicate'], env });
    assert.notEqual(unknown.code, 0);
    assert.match(unknown.stderr, /unknown command/);
  });

  test('chat without a model says which key to set', async () => {
    profileDir('nokey', { config: '' });
    const res = await cli({ argv: ['-p', 'nokey', 'chat'], env, stdin: 'hello\n' });
    assert.equal(res.code, 78);
    assert.match(res.stderr, /OPENAI_API_KEY/);
    assert.match(res.stderr, /base_url/);
  });

  test('sessions list before any session says what to do', async () => {
    profileDir('empty', { config: '' });
    const res = await cli({ argv: ['-p', 'empty', 'sessions', 'list'], env });
    assert.equal(res.code, 1);
    assert.match(res.stderr, /no sessions yet/);
    assert.match(res.stderr, /hermes chat/);
  });

  test('sessions search: single messages, best first, snippets marked, secrets scrubbed', async () => {
    const dir = profileDir('searched', { config: '', env: `OPENAI_API_KEY=${canary}\n` });
    const store = openStore({ path: path.join(dir, 'state.db'), clock: systemClock });
    const session = store.createSession({ key: 'searched:telegram:42' }).id;
    store.appendMessage({ sessionId: session, role: 'user', content: 'the parcel locker code changed' });
    store.appendMessage({ sessionId: session, role: 'assistant', content: `locker, locker: the locker key is ${canary}` });
    store.appendMessage({ sessionId: session, role: 'user', content: 'nothing to see here' });
    store.close();
    const res = await cli({ argv: ['-p', 'searched', 'sessions', 'search', 'locker'], env });
    assert.equal(res.code, 0, res.stderr);
    const lines = res.stdout.trim().split('\n');
    assert.equal(lines.length, 2, res.stdout);
    assert.match(lines[0] ?? '', /assistant\s+\[locker\], \[locker\]: the \[locker\] key is \*\*\*/);
    assert.match(lines[1] ?? '', /user\s+the parcel \[locker\] code changed/);
    assert.ok(!res.stdout.includes(canary));
    const none = await cli({ argv: ['-p', 'searched', 'sessions', 'search', 'NEAR(('], env });
    assert.equal(none.code, 0, none.stderr);
    assert.match(none.stdout, /^no messages match/);
  });

  test('the default profile lives in HERMES_HOME itself', async () => {
    writeFileSync(path.join(home, 'config.yaml'), 'agent:\n  max_iterations: 12\n');
    const res = await cli({ argv: ['config', 'show'], env });
    assert.equal(res.code, 0, res.stderr);
    assert.match(res.stdout, /max_iterations: 12/);
    assert.equal(readFileSync(path.join(home, 'config.yaml'), 'utf8').includes('12'), true);
  });
});
