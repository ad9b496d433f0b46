import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { systemUnitUser } from '../../../src/cli/unit-user.js';

test('the system unit runs as the owner of HERMES_HOME, else the sudo user, else the current user', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-unit-user-'));
  try {
    const uid = os.userInfo().uid;
    const passwd = path.join(dir, 'passwd');
    writeFileSync(passwd, `nobody:x:65534:65534::/:/bin/sh\nsvc:x:${uid}:${uid}::/home/svc:/bin/sh\n`);
    assert.equal(systemUnitUser({ hermesHome: dir, env: {}, passwdPath: passwd }), 'svc', 'the owner by uid');
    writeFileSync(passwd, 'other:x:4242:4242::/:/bin/sh\n');
    assert.equal(systemUnitUser({ hermesHome: dir, env: { SUDO_USER: 'alice' }, passwdPath: passwd }), 'alice', 'owner not listed: the sudo user');
    assert.equal(systemUnitUser({ hermesHome: path.join(dir, 'missing'), env: {}, passwdPath: passwd }), os.userInfo().username, 'no HERMES_HOME yet: the current user');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
