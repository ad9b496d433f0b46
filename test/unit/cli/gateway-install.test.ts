import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { NODE_FLAGS } from '../../../src/cli/node-flags.js';
import { cli } from '../../helpers/cli.js';

test('gateway install --print renders the per-profile unit; systemd-analyze accepts it when available', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-unit-'));
  try {
    writeFileSync(path.join(home, 'config.yaml'), 'gateway:\n  drain_timeout: 45s\n');
    const res = await cli({ argv: ['gateway', 'install', '--print'], env: { HERMES_HOME: home, HOME: home } });
    assert.equal(res.code, 0, res.stderr);
    const unit = res.stdout;
    assert.match(unit, new RegExp(`^Environment=HERMES_HOME=${home.replace(/[/.]/g, '\\$&')}$`, 'm'));
    assert.match(unit, new RegExp(`^ExecStart=${process.execPath.replace(/[/.]/g, '\\$&')} ${NODE_FLAGS.join(' ')} \\S+/dist/src/cli/main\\.js -p %i gateway run$`, 'm'));
    for (const line of ['Restart=on-failure', 'RestartPreventExitStatus=78', 'TimeoutStopSec=75', 'KillMode=mixed', 'WantedBy=default.target']) {
      assert.ok(unit.split('\n').includes(line), `missing ${line}`);
    }
    const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
    if (analyze.status === 0) {
      const file = path.join(home, 'hermes-gateway@work.service');
      writeFileSync(file, unit);
      const verify = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
      assert.equal(verify.status, 0, `systemd-analyze verify: ${verify.stdout}${verify.stderr}`);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
