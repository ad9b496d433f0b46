import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import type { HealthReport } from '../../src/gateway/http/server.js';
import { cli } from '../helpers/cli.js';

test('hermes status on a full disk: "degraded: disk full" with what failed (exit 1); without a gateway.json of its own (it could not be written) the configured port is asked', async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-status-disk-'));
  let report: HealthReport = {
    status: 'degraded',
    profile: 'work',
    uptimeSeconds: 65,
    adapters: [{ name: 'telegram', state: 'backing-off', since: new Date(0).toISOString(), lastError: 'the gateway cannot journal messages right now (disk full); deliver this message again later', restarts: 3 }],
    disk: {
      state: 'degraded',
      reason: 'disk full',
      problems: [
        { part: 'log', detail: 'the log file cannot be written (disk full, ENOSPC)', since: '2030-01-01T00:00:00.000Z' },
        { part: 'store', detail: 'the store cannot write (SQLITE_FULL during recordInbound)', since: '2030-01-01T00:00:01.000Z' },
      ],
    },
  };
  const health = createServer((_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' });
    res.end(JSON.stringify(report));
  });
  await new Promise<void>((resolve) => health.listen(0, '127.0.0.1', resolve));
  try {
    const port = (health.address() as AddressInfo).port;
    const work = path.join(home, 'profiles', 'work');
    mkdirSync(work, { recursive: true });
    writeFileSync(path.join(work, 'config.yaml'), stringify({ gateway: { http: { host: '127.0.0.1', port } } }));
    writeFileSync(path.join(work, 'gateway.pid'), `${process.pid}\n`); // a live pid stands in for the gateway
    // A gateway.json left by an earlier run (another pid, another port): not this gateway's.
    writeFileSync(path.join(work, 'gateway.json'), JSON.stringify({ pid: 999999999, startedAt: 0, http: { host: '127.0.0.1', port: 9 } }));
    const res = await cli({ argv: ['status'], env: { HERMES_HOME: home, HOME: home } });
    assert.equal(res.code, 1, res.stdout + res.stderr);
    assert.match(res.stdout, /^work: running \(pid \d+, up 1m 5s\), degraded: disk full$/m, res.stdout);
    assert.match(res.stdout, /^ {2}telegram: backing-off — the gateway cannot journal messages right now \(disk full\); deliver this message again later$/m);
    assert.match(res.stdout, /^ {2}disk: the log file cannot be written \(disk full, ENOSPC\) since 2030-01-01T00:00:00\.000Z$/m);
    assert.match(res.stdout, /^ {2}disk: the store cannot write \(SQLITE_FULL during recordInbound\) since 2030-01-01T00:00:01\.000Z$/m);
    assert.ok(res.stdout.includes(`  fix: free space on the filesystem that holds ${work} (df -h shows it); the gateway notices within seconds and answers the messages it turned away\n`), res.stdout);

    report = { ...report, status: 'ok', disk: { state: 'ok' }, adapters: [{ name: 'telegram', state: 'connected', since: new Date(0).toISOString(), lastError: null, restarts: 3 }] };
    const ok = await cli({ argv: ['status'], env: { HERMES_HOME: home, HOME: home } });
    assert.equal(ok.code, 0, ok.stdout);
    assert.match(ok.stdout, /^work: running \(pid \d+, up 1m 5s\), ok$/m);
    assert.doesNotMatch(ok.stdout, /disk/);
  } finally {
    await new Promise((resolve) => health.close(resolve));
    rmSync(home, { recursive: true, force: true });
  }
});
