import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { loadAppConfig } from '../../src/app/config-schema.js';
import { assertNoClashes, findClashes } from '../../src/app/clashes.js';
import { resolveProfile } from '../../src/home/profile.js';
import { cli } from '../helpers/cli.js';
import { writeProfile } from '../unit/cli/ops-support.js';

const TOKEN = '123456:SECRET-TELEGRAM-TOKEN';
let home = '';
let env: Record<string, string> = {};

beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'hermes-clash-'));
  env = { HERMES_HOME: home, HOME: home };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

/** A config with telegram on `token` (enabled or not) and the HTTP server on `port`. */
function config(params: { token: string; enabled: boolean; port: number }): unknown {
  return { gateway: { http: { port: params.port } }, platforms: { telegram: { enabled: params.enabled, token: params.token } } };
}

test('gateway run refuses a bot token another profile uses for an enabled platform (exit 78, no token printed)', async () => {
  // "work" has the token in its own .env; that file is read without touching process.env.
  writeProfile({ home, name: 'work', config: { platforms: { telegram: { enabled: true, token: '${TG_TOKEN}' } }, gateway: { http: { port: 0 } } }, dotenv: `TG_TOKEN=${TOKEN}\n` });
  writeProfile({ home, name: 'personal', config: config({ token: TOKEN, enabled: true, port: 0 }) });
  const res = await cli({ argv: ['-p', 'personal', 'gateway', 'run'], env });
  assert.equal(res.code, 78, res.stderr);
  assert.match(res.stderr, /profiles "personal" and "work" both use the same telegram account \(platforms\.telegram\.token\)/);
  assert.match(res.stderr, /hint: .*enabled: false/);
  assert.ok(!res.stderr.includes(TOKEN) && !res.stdout.includes(TOKEN), 'the token is never printed');
  assert.equal(process.env['TG_TOKEN'], undefined, "another profile's .env never reaches process.env");
});

test('gateway run refuses two profiles asking for the same HTTP port (exit 78)', async () => {
  writeProfile({ home, name: 'work', config: config({ token: 'a', enabled: false, port: 18_787 }) });
  writeProfile({ home, name: 'personal', config: config({ token: 'b', enabled: false, port: 18_787 }) });
  const res = await cli({ argv: ['-p', 'work', 'gateway', 'run'], env });
  assert.equal(res.code, 78, res.stderr);
  assert.match(res.stderr, /profiles "work" and "personal" both ask for HTTP port 18787 \(gateway\.http\.port\)/);
});

test('no refusal when the other profile has the platform disabled, uses port 0, or has a broken config', async () => {
  writeProfile({ home, name: 'work', config: config({ token: TOKEN, enabled: false, port: 0 }) });
  writeProfile({ home, name: 'spare', config: config({ token: TOKEN, enabled: true, port: 0 }) });
  writeProfile({ home, name: 'broken', config: 'platforms:\n  telegram:\n    enabled: true\n    token: ${UNSET_TOKEN_VAR}\n' });
  const profile = resolveProfile({ hermesHome: home, name: 'personal' });
  writeProfile({ home, name: 'personal', config: config({ token: TOKEN, enabled: true, port: 0 }) });
  const debug: unknown[] = [];
  const loaded = await loadAppConfig({ profile, env });
  const params = { profile, config: loaded.config, env, logger: { debug: (...args: unknown[]) => void debug.push(args) } };
  const clashes = await findClashes(params);
  assert.deepEqual(clashes.map((c) => `${c.kind}:${c.other.name}`), ['account:spare'], 'only the enabled one clashes');
  assert.equal(debug.length, 1, 'the broken profile was skipped with a debug line');
  writeProfile({ home, name: 'spare', config: config({ token: TOKEN, enabled: false, port: 0 }) });
  await assert.doesNotReject(assertNoClashes(params));
});
