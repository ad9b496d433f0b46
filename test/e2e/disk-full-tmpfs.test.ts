import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { LoopbackPlatform } from '../fakes/loopback/server.js';
import { cli } from '../helpers/cli.js';
import { healthOf, startGatewayProcess, until } from '../helpers/gateway-process.js';

/** Mounts a small tmpfs at a new temp folder; why not when this machine does not allow it (not root, no mount). */
function mountSmallDisk(params: { sizeMiB: number }): { dir: string; unmount: () => void } | string {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-tmpfs-'));
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${params.sizeMiB}m,mode=0700`, 'tmpfs', dir], { encoding: 'utf8' });
  if (mounted.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    return `mount -t tmpfs is not permitted here (${(mounted.stderr || mounted.error?.message || 'failed').trim()})`;
  }
  return {
    dir,
    unmount: () => {
      spawnSync('umount', ['-l', dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Writes `file` until the filesystem has no byte left (ENOSPC at every chunk size down to one page). */
function fillDisk(params: { file: string }): void {
  const fd = openSync(params.file, 'w');
  try {
    for (const size of [1024 * 1024, 64 * 1024, 4096, 512, 1]) {
      const chunk = Buffer.alloc(size, 0x66);
      for (;;) {
        try {
          writeSync(fd, chunk);
        } catch (error) {
          assert.equal((error as NodeJS.ErrnoException).code, 'ENOSPC');
          break;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
}

const disk = mountSmallDisk({ sizeMiB: 8 });
const fullAtStart = mountSmallDisk({ sizeMiB: 8 });

test('HERMES_HOME on a tmpfs that fills up: the gateway stays up, says degraded: disk full, and answers every message once after space is freed', { timeout: 120_000, skip: typeof disk === 'string' ? disk : false }, async () => {
  if (typeof disk === 'string') return;
  const home = disk.dir;
  const model = new FakeOpenAI();
  const platform = new LoopbackPlatform();
  await model.start();
  await platform.start();
  model.setResponder((req) => {
    const users = (req.body.messages ?? []).filter((m) => m['role'] === 'user');
    const text = String(users.at(-1)?.['content'] ?? '');
    return { text: text.length > 1000 ? 'answer to the long one' : `answer to ${text}` };
  });
  const profileDir = path.join(home, 'profiles', 'crash');
  mkdirSync(profileDir, { recursive: true });
  writeFileSync(path.join(profileDir, 'config.yaml'), stringify({ model: { base_url: model.baseURL, api_key: 'sk-tmpfs', name: 'fake-model' }, gateway: { http: { port: 0 }, busy_policy: 'queue' }, stream: { edit_interval: '250ms' } }));
  const gateway = startGatewayProcess({ home, profile: 'crash', loopbackUrl: platform.baseURL });
  const env = { HERMES_HOME: home, HOME: home };
  const filler = path.join(home, 'filler');
  const answers = (): string[] => platform.chat('c1').map((m) => m.text);
  try {
    await until({ what: 'the gateway to run', timeoutMs: 30_000, output: gateway.output, check: () => /hermes gateway running/.test(gateway.output()) || !gateway.alive() });
    platform.pushUpdate({ chatId: 'c1', senderId: 'u1', text: 'before', messageId: 'm1' });
    await until({ what: 'the first answer', timeoutMs: 20_000, output: gateway.output, check: () => answers().includes('answer to before') });

    fillDisk({ file: filler });
    // A long message needs new space in the journal (its WAL grows): the store cannot take it while the disk is full.
    platform.pushUpdate({ chatId: 'c1', senderId: 'u1', text: `long ${'x'.repeat(300_000)}`, messageId: 'm2' });
    platform.pushUpdate({ chatId: 'c1', senderId: 'u1', text: 'while full', messageId: 'm3' });
    await until({ what: '/healthz degraded: disk full', timeoutMs: 20_000, output: gateway.output, check: async () => {
      const health = await healthOf({ profileDir });
      return health?.disk?.state === 'degraded' && health.disk.reason === 'disk full' && health.status === 'degraded';
    } });
    const status = await cli({ argv: ['status'], env });
    assert.match(status.stdout, /^crash: running \(pid \d+, up \d+s\), degraded: disk full$/m, status.stdout);
    assert.equal(status.code, 1);
    await new Promise((r) => setTimeout(r, 2500));
    assert.ok(gateway.alive(), `the gateway exited on the full disk:\n${gateway.output()}`);
    assert.ok(!answers().includes('answer to the long one'), 'the long message cannot have been journaled on a full disk');

    rmSync(filler);
    await until({ what: 'every message answered', timeoutMs: 60_000, output: gateway.output, check: () => answers().includes('answer to the long one') && answers().includes('answer to while full') });
    await until({ what: '/healthz ok again', timeoutMs: 30_000, output: gateway.output, check: async () => (await healthOf({ profileDir }))?.status === 'ok' });
    platform.pushUpdate({ chatId: 'c1', senderId: 'u1', text: 'after', messageId: 'm4' });
    await until({ what: 'the last answer', timeoutMs: 20_000, output: gateway.output, check: () => answers().includes('answer to after') });
    const all = answers();
    for (const text of ['answer to before', 'answer to the long one', 'answer to while full', 'answer to after']) {
      assert.equal(all.filter((t) => t === text).length, 1, `${text} once: ${all.join(' | ')}`);
    }
    gateway.proc.kill('SIGTERM');
    assert.equal(await gateway.exited, 0, gateway.output());
    if (process.env['DEBUG_DISK']) process.stderr.write(gateway.output());
  } finally {
    gateway.proc.kill('SIGKILL');
    await gateway.exited;
    await model.close();
    await platform.close();
    disk.unmount();
  }
});

test('starting on a tmpfs that is already full: a clear "disk full" error and hint (systemd retries), no stack trace', { timeout: 60_000, skip: typeof fullAtStart === 'string' ? fullAtStart : false }, async () => {
  if (typeof fullAtStart === 'string') return;
  const home = fullAtStart.dir;
  try {
    const profileDir = path.join(home, 'profiles', 'crash');
    mkdirSync(profileDir, { recursive: true });
    writeFileSync(path.join(profileDir, 'config.yaml'), stringify({ model: { base_url: 'http://127.0.0.1:9/v1', api_key: 'sk-tmpfs', name: 'fake-model' }, gateway: { http: { port: 0 } } }));
    // A store from an earlier run (closed cleanly: no -wal or -shm file left), then the disk fills up.
    const { openStore } = await import('../../src/store/sqlite-store.js');
    const { systemClock } = await import('../../src/core/clock.js');
    openStore({ path: path.join(profileDir, 'state.db'), clock: systemClock }).close();
    fillDisk({ file: path.join(home, 'filler') });
    const res = await cli({ argv: ['-p', 'crash', 'gateway', 'run'], env: { HERMES_HOME: home, HOME: home } });
    assert.equal(res.code, 1, res.stdout + res.stderr);
    assert.match(res.stderr, /^error: Cannot open the hermes store at .*state\.db: disk full \(SQLITE_[A-Z_]+\)$/m, res.stderr);
    assert.match(res.stderr, /^hint: Free some space on the filesystem that holds HERMES_HOME/m);
  } finally {
    fullAtStart.unmount();
  }
});
