import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { resolveProfile } from '../../../src/home/index.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { shortSessionId } from '../../../src/store/session-id.js';
import { systemClock } from '../../../src/core/clock.js';
import { cli } from '../../helpers/cli.js';

const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-prompt-cli-'));
after(() => rmSync(home, { recursive: true, force: true }));
const env = { HERMES_HOME: home, HOME: home };

test('hermes prompt show prints each layer with its size in characters and the total, then the prompt a new session gets', async () => {
  const created = await cli({ argv: ['profile', 'create', 'work'], env });
  assert.equal(created.code, 0, created.stderr);
  const profile = resolveProfile({ hermesHome: home, name: 'work' });
  writeFileSync(profile.configPath, 'agent:\n  system_prompt: Answer in French.\n', { flag: 'a' });
  const shown = await cli({ argv: ['-p', 'work', 'prompt', 'show', '--platform', 'sms'], env });
  assert.equal(shown.code, 0, shown.stderr);
  const lines = shown.stdout.split('\n');
  const size = (name: string): number => {
    const line = lines.find((l) => new RegExp(`^  ${name} +[\\d,]+ chars$`).test(l));
    assert.ok(line, `no size line for ${name} in:\n${shown.stdout}`);
    return Number.parseInt((line.match(/([\d,]+) chars$/)?.[1] ?? '').replace(/,/g, ''), 10);
  };
  for (const name of ['identity', 'tool_guidance', 'system_prompt', 'memory', 'skills', 'context_files', 'runtime']) size(name);
  assert.equal(size('system_prompt'), 'Answer in French.'.length);
  assert.equal(size('skills'), 0);
  const text = shown.stdout.slice(shown.stdout.indexOf('\n\n') + 2).replace(/\n$/, '');
  assert.equal(size('total'), text.length);
  assert.match(text, /^You are Hermes/);
  assert.match(text, /Platform: sms\. Plain text only/);

  // --context: the request a new sms session would send, by part, in tokens and as a share of the model's context.
  writeFileSync(profile.configPath, 'platform_toolsets:\n  sms: [memory, session_search]\n', { flag: 'a' });
  const context = await cli({ argv: ['-p', 'work', 'prompt', 'show', '--platform', 'sms', '--context'], env });
  assert.equal(context.code, 0, context.stderr);
  assert.match(context.stdout, /^the next request of a new sms session of profile work now\nNext request: ~[\d,]+ of [\d,]+ tokens \([\d.]+% of the context\), estimated\n {2}system prompt /);
  assert.match(context.stdout, /^ {2}tools \(2\) +[\d,]+ +[\d.]+%\n {4}(memory|session_search) +[\d,]+ +[\d.]+%\n {4}(memory|session_search) /m);
  assert.match(context.stdout, /^ {2}history \(0 messages\) +0 +0\.0%$/m);

  const unknown = await cli({ argv: ['-p', 'work', 'prompt', 'show', '--platform', 'pager'], env });
  assert.notEqual(unknown.code, 0);
  assert.match(unknown.stderr, /unknown platform "pager"/);
});

test('hermes prompt show --session prints the stored prompt (by short or full id); an unknown session is a clear error', async () => {
  const created = await cli({ argv: ['profile', 'create', 'personal'], env });
  assert.equal(created.code, 0, created.stderr);
  const profile = resolveProfile({ hermesHome: home, name: 'personal' });
  const store = openStore({ path: profile.dbPath, clock: systemClock });
  let id: string;
  try {
    const session = store.createSession({ key: 'personal:telegram:1', title: 'hi' });
    id = session.id;
    store.setSessionPrompt({ sessionId: id, prompt: { text: 'FROZEN PROMPT TEXT', layers: [{ name: 'identity', chars: 18 }] } });
    store.createSession({ key: 'personal:telegram:2', title: 'no prompt yet' });
  } finally {
    store.close();
  }
  for (const given of [shortSessionId({ id }), id]) {
    const shown = await cli({ argv: ['-p', 'personal', 'prompt', 'show', '--session', given], env });
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^ {2}identity +18 chars$/m);
    assert.match(shown.stdout, /^ {2}total +18 chars$/m);
    assert.match(shown.stdout, /\n\nFROZEN PROMPT TEXT\n$/);
  }
  const missing = await cli({ argv: ['-p', 'personal', 'prompt', 'show', '--session', 'deadbeef'], env });
  assert.notEqual(missing.code, 0);
  assert.match(missing.stderr, /no session "deadbeef"/);
  assert.equal(missing.stdout, '');
});

test('hermes prompt show on a profile that does not exist is an error (exit 66), not the prompt of a made-up profile', async () => {
  for (const argv of [['-p', 'nosuch', 'prompt', 'show'], ['-p', 'nosuch', 'prompt', 'show', '--session', 'abcd1234']]) {
    const shown = await cli({ argv, env });
    assert.equal(shown.code, 66, shown.stdout);
    assert.match(shown.stderr, /profile "nosuch" does not exist/);
    assert.equal(shown.stdout, '');
  }
  assert.equal(existsSync(path.join(home, 'profiles', 'nosuch')), false);
});
