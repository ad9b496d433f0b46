import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { configFingerprint, knownValid, rememberValid } from '../../../src/home/config-stamp.js';
import { tempProfile } from '../config/temp-profile.js';

const CONFIG = 'model:\n  base_url: http://127.0.0.1:9/v1\n  name: ${MODEL_NAME}\n  api_key: ${OPENAI_API_KEY}\n';

test('the fingerprint changes with every input of the verdict and with nothing else', () => {
  const { profile, cleanup } = tempProfile({ config: CONFIG, dotenv: 'OPENAI_API_KEY=sk-one\n' });
  try {
    const env = { MODEL_NAME: 'gpt-4o-mini', PWD: '/somewhere', HOME: '/home/owner' };
    const base = configFingerprint({ profile, env, buildId: 'b1' });
    assert.match(base ?? '', /^[0-9a-f]{64}$/);
    // The same inputs: the same fingerprint; a variable config.yaml does not name (PWD) changes nothing.
    assert.equal(configFingerprint({ profile, env, buildId: 'b1' }), base);
    assert.equal(configFingerprint({ profile, env: { ...env, PWD: '/elsewhere', SHLVL: '3' }, buildId: 'b1' }), base);
    // A named variable, HOME, the api_key fallback's variable, the build: each gives another.
    const others = [
      configFingerprint({ profile, env: { ...env, MODEL_NAME: 'gpt-4o' }, buildId: 'b1' }),
      configFingerprint({ profile, env: { PWD: '/somewhere', HOME: '/home/owner' }, buildId: 'b1' }),
      configFingerprint({ profile, env: { ...env, HOME: '/root' }, buildId: 'b1' }),
      configFingerprint({ profile, env: { ...env, OPENAI_API_KEY: 'sk-inherited' }, buildId: 'b1' }),
      configFingerprint({ profile, env, buildId: 'b2' }),
    ];
    fs.writeFileSync(profile.envPath, 'OPENAI_API_KEY=sk-two\n');
    others.push(configFingerprint({ profile, env, buildId: 'b1' }));
    fs.writeFileSync(profile.configPath, `${CONFIG}# a comment\n`);
    others.push(configFingerprint({ profile, env, buildId: 'b1' }));
    fs.rmSync(profile.envPath);
    others.push(configFingerprint({ profile, env, buildId: 'b1' }));
    assert.equal(new Set([base, ...others]).size, others.length + 1, 'two inputs gave one fingerprint');
  } finally {
    cleanup();
  }
});

test('a config that cannot be read (a folder) has no fingerprint: only loading it tells', () => {
  const { profile, cleanup } = tempProfile({});
  try {
    fs.mkdirSync(profile.configPath);
    assert.equal(configFingerprint({ profile, env: {}, buildId: 'b1' }), undefined);
  } finally {
    cleanup();
  }
});

test('only the fingerprint last noted is known valid; a missing or garbled note knows nothing', () => {
  const { profile, cleanup } = tempProfile({ config: CONFIG });
  try {
    const stamp = path.join(profile.dir, 'config-valid.json');
    assert.equal(knownValid({ profile, fingerprint: 'a'.repeat(64) }), false);
    rememberValid({ profile, fingerprint: 'a'.repeat(64) });
    assert.equal(fs.statSync(stamp).mode & 0o777, 0o600);
    assert.equal(knownValid({ profile, fingerprint: 'a'.repeat(64) }), true);
    assert.equal(knownValid({ profile, fingerprint: 'b'.repeat(64) }), false);
    rememberValid({ profile, fingerprint: 'b'.repeat(64) });
    assert.equal(knownValid({ profile, fingerprint: 'a'.repeat(64) }), false);
    fs.writeFileSync(stamp, '{"fingerprint": "bbb');
    assert.equal(knownValid({ profile, fingerprint: 'b'.repeat(64) }), false);
    // Only a hash is kept: no config or .env text.
    rememberValid({ profile, fingerprint: 'c'.repeat(64) });
    assert.deepEqual(JSON.parse(fs.readFileSync(stamp, 'utf8')), { fingerprint: 'c'.repeat(64) });
  } finally {
    cleanup();
  }
});

test('a note the disk refuses is let be', () => {
  const { profile, cleanup } = tempProfile({ config: CONFIG });
  try {
    // The note's path is taken by a folder: the write fails, and nothing throws.
    fs.mkdirSync(path.join(profile.dir, 'config-valid.json'));
    assert.doesNotThrow(() => rememberValid({ profile, fingerprint: 'a'.repeat(64) }));
    assert.equal(knownValid({ profile, fingerprint: 'a'.repeat(64) }), false);
  } finally {
    cleanup();
  }
});
