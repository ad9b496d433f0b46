import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { withDefaultCommand } from '../../../src/cli/main.js';
import { FakeOpenAI } from '../../fakes/openai/server.js';
import { cli } from '../../helpers/cli.js';

const repo = path.resolve(import.meta.dirname, '../../..');
const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-entry-'));
after(() => rmSync(home, { recursive: true, force: true }));
const env = { HERMES_HOME: home, HOME: home };

/** The text of the user messages in a captured model request. */
function userText(messages: readonly Record<string, unknown>[] | undefined): string {
  return (messages ?? []).filter((m) => m['role'] === 'user').map((m) => String(m['content'])).join('\n');
}

describe('the hermes entry point', () => {
  test('withDefaultCommand: nothing but -p NAME (or nothing) runs chat; anything else is left to commander', () => {
    assert.deepEqual(withDefaultCommand({ argv: [] }), ['chat']);
    assert.deepEqual(withDefaultCommand({ argv: ['-p', 'work'] }), ['-p', 'work', 'chat']);
    assert.deepEqual(withDefaultCommand({ argv: ['--profile', 'work'] }), ['--profile', 'work', 'chat']);
    assert.deepEqual(withDefaultCommand({ argv: ['--profile=work'] }), ['--profile=work', 'chat']);
    assert.deepEqual(withDefaultCommand({ argv: ['-pwork'] }), ['-pwork', 'chat']);
    assert.deepEqual(withDefaultCommand({ argv: ['status'] }), ['status']);
    assert.deepEqual(withDefaultCommand({ argv: ['-p', 'work', 'status'] }), ['-p', 'work', 'status']);
    assert.deepEqual(withDefaultCommand({ argv: ['--help'] }), ['--help']);
    assert.deepEqual(withDefaultCommand({ argv: ['-p', 'work', '--version'] }), ['-p', 'work', '--version']);
    // A -p without its name: commander's "argument missing", not a profile called "chat".
    assert.deepEqual(withDefaultCommand({ argv: ['-p'] }), ['-p']);
  });

  test('bare `hermes` (and `hermes -p NAME`) starts the terminal chat: the typed line reaches the model', { timeout: 30_000 }, async () => {
    const fake = new FakeOpenAI();
    await fake.start();
    try {
      const model = `model:\n  base_url: ${fake.baseURL}\n  api_key: sk-entry-test-key\n  max_retries: 0\n`;
      writeFileSync(path.join(home, 'config.yaml'), model);
      mkdirSync(path.join(home, 'profiles', 'work'), { recursive: true });
      writeFileSync(path.join(home, 'profiles', 'work', 'config.yaml'), model);
      fake.enqueue({ chunks: ['Bonjour ', 'to you.'] }, { chunks: ['Work ', 'here.'] });

      const bare = await cli({ argv: [], env, stdin: 'hello from bare hermes\n' });
      assert.equal(bare.code, 0, bare.stderr);
      assert.match(bare.stdout, /Bonjour to you\./);
      assert.match(userText(fake.requests[0]?.body.messages), /hello from bare hermes/);

      const profiled = await cli({ argv: ['-p', 'work'], env, stdin: 'hello from work\n' });
      assert.equal(profiled.code, 0, profiled.stderr);
      assert.match(profiled.stdout, /Work here\./);
      assert.match(userText(fake.requests[1]?.body.messages), /hello from work/);
      assert.equal(fake.requests.length, 2);
    } finally {
      await fake.close();
    }
  });

  test('--help still lists the commands; --version and -V print the package version', async () => {
    const help = await cli({ argv: ['--help'], env });
    assert.equal(help.code, 0, help.stderr);
    for (const command of ['chat', 'status', 'gateway', 'config', 'doctor', 'sessions', 'profile']) assert.match(help.stdout, new RegExp(`^  ${command}\\b`, 'm'), command);
    const version = (JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')) as { version: string }).version;
    for (const flag of ['--version', '-V']) {
      const res = await cli({ argv: [flag], env });
      assert.equal(res.code, 0);
      assert.equal(res.stdout, `${version}\n`);
    }
    // With -p it goes through commander: same answer.
    const viaCommander = await cli({ argv: ['-p', 'work', '--version'], env });
    assert.equal(viaCommander.code, 0);
    assert.equal(viaCommander.stdout, `${version}\n`);
  });
});
