import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { profileDelete } from '../../../src/cli/profile-delete.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { captureIO, writeProfile } from './ops-support.js';

const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-stop-'));
const env = { HERMES_HOME: home, HOME: home, XDG_CONFIG_HOME: path.join(home, 'xdg') };
const children: ChildProcess[] = [];
after(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(home, { recursive: true, force: true });
});

/** A stand-in gateway process (its pid goes into gateway.pid); resolves once it has set up its signal handling. */
async function fakeGateway(params: { ignoreSigterm: boolean }): Promise<{ child: ChildProcess; exited: Promise<NodeJS.Signals | null> }> {
  const code = `${params.ignoreSigterm ? "process.on('SIGTERM', () => {});" : ''} setInterval(() => {}, 1000); console.log('ready');`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve) => child.stdout?.once('data', () => resolve()));
  return { child, exited };
}

test('delete stops a running gateway with SIGTERM first', async () => {
  const dir = writeProfile({ home, name: 'polite', config: {} });
  const { child, exited } = await fakeGateway({ ignoreSigterm: false });
  writeFileSync(path.join(dir, 'gateway.pid'), `${child.pid}\n`);
  const { io, stdout } = captureIO({ env });
  assert.equal(await profileDelete({ io, name: 'polite', yes: true }), 0);
  assert.equal(await exited, 'SIGTERM');
  assert.match(stdout(), new RegExp(`stopped its gateway \\(pid ${child.pid}\\)`));
  assert.ok(!existsSync(dir));
});

test('a gateway that ignores SIGTERM gets SIGKILL after drain_timeout + 5 s (on the injected clock)', async () => {
  const dir = writeProfile({ home, name: 'stubborn', config: { gateway: { drain_timeout: '1s' } } });
  const { child, exited } = await fakeGateway({ ignoreSigterm: true });
  writeFileSync(path.join(dir, 'gateway.pid'), `${child.pid}\n`);
  const clock = new FakeClock();
  const start = clock.now();
  const { io, stdout } = captureIO({ env });
  let done = false;
  const deleting = profileDelete({ io, name: 'stubborn', yes: true, clock }).finally(() => (done = true));
  let killedAt: number | undefined;
  void exited.then(() => (killedAt = clock.now()));
  while (!done) {
    await clock.advance(100);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  assert.equal(await deleting, 0);
  assert.equal(await exited, 'SIGKILL');
  assert.ok(killedAt !== undefined && killedAt - start >= 6_000, `killed after ${String(killedAt)} - ${start}`);
  assert.match(stdout(), /did not stop within 6s and was killed/);
  assert.ok(!existsSync(dir));
});
