import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DiskHealth, diskHealthReport, type DiskChange } from '../../../src/gateway/ops/disk-health.js';
import { FakeClock } from '../../helpers/fake-clock.js';

test('DiskHealth: degraded while any part fails (worst kind first), probed on the clock, clears by itself once the probe writes', async () => {
  const clock = new FakeClock(Date.UTC(2030, 0, 1));
  const disk = new DiskHealth({ clock, probeIntervalMs: 5000 });
  const changes: DiskChange[] = [];
  disk.onChange((change) => changes.push(change));
  let storeFull = true;
  let probes = 0;
  disk.setProbe({
    part: 'store',
    probe: () => {
      probes += 1;
      if (storeFull) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      return true;
    },
  });
  const controller = new AbortController();
  const run = disk.run({ signal: controller.signal });
  try {
    assert.deepEqual(disk.status(), { state: 'ok' });
    await clock.advance(5000);
    assert.equal(probes, 0, 'nothing is probed while every part writes');

    disk.failed({ part: 'log', kind: 'io', detail: 'the log file cannot be written (disk I/O error, EIO)' });
    disk.failed({ part: 'store', kind: 'diskFull', detail: 'the store cannot write (SQLITE_FULL during recordInbound)' });
    disk.failed({ part: 'store', kind: 'diskFull', detail: 'the store cannot write (SQLITE_FULL during setCursor)' });
    assert.equal(changes.filter((c) => c.state === 'failed').length, 2, 'one change per part, not per failed write');
    const status = disk.status();
    assert.equal(status.state === 'degraded' ? status.reason : '', 'disk full', 'a full disk is the worst reason');
    assert.deepEqual(diskHealthReport({ status }), {
      state: 'degraded',
      reason: 'disk full',
      problems: [
        { part: 'log', detail: 'the log file cannot be written (disk I/O error, EIO)', since: '2030-01-01T00:00:05.000Z' },
        { part: 'store', detail: 'the store cannot write (SQLITE_FULL during setCursor)', since: '2030-01-01T00:00:05.000Z' },
      ],
    });

    await clock.advance(5000);
    assert.equal(probes, 1);
    assert.equal(disk.failing({ part: 'store' }), true, 'still full');
    storeFull = false;
    await clock.advance(5000);
    assert.equal(probes, 2);
    assert.equal(disk.failing({ part: 'store' }), false);
    assert.deepEqual(changes.at(-1), { state: 'recovered', part: 'store', failedFor: 10_000 });
    const left = disk.status();
    assert.equal(left.state === 'degraded' ? left.reason : '', 'disk I/O error', 'the log (no probe) still fails');
    disk.succeeded({ part: 'log' });
    assert.deepEqual(disk.status(), { state: 'ok' });
  } finally {
    controller.abort();
    await run;
  }
});
