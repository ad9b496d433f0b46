import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UserFacingError } from '../../../src/core/errors.js';
import { resolveHermesHome } from '../../../src/home/hermes-home.js';
import { resolveProfile } from '../../../src/home/profile.js';
import { ensureProfileDirs } from '../../../src/home/ensure-dirs.js';

describe('resolveHermesHome', () => {
  test('defaults to ~/.hermes', () => {
    assert.equal(resolveHermesHome({ env: {}, homedir: '/home/ann' }), '/home/ann/.hermes');
    assert.equal(resolveHermesHome({ env: { HERMES_HOME: '' }, homedir: '/home/ann' }), '/home/ann/.hermes');
  });

  test('uses HERMES_HOME, made absolute', () => {
    assert.equal(resolveHermesHome({ env: { HERMES_HOME: '/srv/h' }, homedir: '/home/ann' }), '/srv/h');
    assert.equal(resolveHermesHome({ env: { HERMES_HOME: 'rel/h' }, homedir: '/x', cwd: '/work' }), '/work/rel/h');
    assert.equal(resolveHermesHome({ env: { HERMES_HOME: '~/h' }, homedir: '/home/ann' }), '/home/ann/h');
  });
});

describe('resolveProfile', () => {
  test('default profile lives directly in HERMES_HOME', () => {
    for (const name of [undefined, 'default']) {
      const profile = resolveProfile({ hermesHome: '/h', name });
      assert.equal(profile.name, 'default');
      assert.equal(profile.dir, '/h');
      assert.equal(profile.configPath, '/h/config.yaml');
      assert.equal(profile.envPath, '/h/.env');
      assert.equal(profile.logFile, '/h/logs/gateway.log');
    }
  });

  test('named profile lives under profiles/<name> with every path inside it', () => {
    const profile = resolveProfile({ hermesHome: '/h', name: 'work' });
    assert.deepEqual(
      { ...profile },
      {
        name: 'work',
        hermesHome: '/h',
        dir: '/h/profiles/work',
        configPath: '/h/profiles/work/config.yaml',
        envPath: '/h/profiles/work/.env',
        dbPath: '/h/profiles/work/state.db',
        logsDir: '/h/profiles/work/logs',
        logFile: '/h/profiles/work/logs/gateway.log',
        cacheDir: '/h/profiles/work/cache',
        workspaceDir: '/h/profiles/work/workspace',
        memoriesDir: '/h/profiles/work/memories',
        skillsDir: '/h/profiles/work/skills',
        soulPath: '/h/profiles/work/SOUL.md',
        pidPath: '/h/profiles/work/gateway.pid',
      },
    );
    assert.ok(Object.isFrozen(profile));
  });

  test('rejects bad names with a hint', () => {
    for (const name of ['Work', '../etc', '', '-x', 'a b', 'x'.repeat(65), 'a/b']) {
      assert.throws(
        () => resolveProfile({ hermesHome: '/h', name }),
        (error: unknown) => error instanceof UserFacingError && /invalid profile name/.test(error.message) && (error.hint ?? '').length > 0,
        name,
      );
    }
    assert.equal(resolveProfile({ hermesHome: '/h', name: 'a'.repeat(64) }).name, 'a'.repeat(64));
    assert.equal(resolveProfile({ hermesHome: '/h', name: '0_x-y' }).dir, '/h/profiles/0_x-y');
  });
});

describe('ensureProfileDirs', () => {
  test('creates the profile dir (0700) and its subfolders', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
    try {
      const profile = resolveProfile({ hermesHome: path.join(root, 'home'), name: 'personal' });
      ensureProfileDirs({ profile });
      assert.equal(fs.statSync(profile.dir).mode & 0o777, 0o700);
      for (const dir of [profile.logsDir, profile.cacheDir, profile.workspaceDir, profile.memoriesDir, profile.skillsDir]) {
        assert.ok(fs.statSync(dir).isDirectory(), dir);
      }
      fs.chmodSync(profile.dir, 0o755);
      ensureProfileDirs({ profile });
      assert.equal(fs.statSync(profile.dir).mode & 0o777, 0o700, 'an existing dir is tightened too');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
