import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { LoopbackPlatform } from '../fakes/loopback/server.js';
import { cli } from '../helpers/cli.js';
import { healthOf, startGatewayProcess, until } from '../helpers/gateway-process.js';

// The tester's reproduction: the log writer gets ENOSPC. /dev/full answers every write with a real ENOSPC from the
// kernel, so a gateway.log that points there is a log file on a full disk, without needing to mount anything.
test('a log file on a full disk (gateway.log -> /dev/full): the gateway stays up, says degraded: disk full, answers; clears once the log is writable', { timeout: 90_000, skip: existsSync('/dev/full') ? false : 'no /dev/full on this machine' }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-fulllog-'));
  const model = new FakeOpenAI();
  const platform = new LoopbackPlatform();
  await model.start();
  await platform.start();
  const profileDir = path.join(home, 'profiles', 'crash');
  mkdirSync(path.join(profileDir, 'logs'), { recursive: true });
  writeFileSync(path.join(profileDir, 'config.yaml'), stringify({ model: { base_url: model.baseURL, api_key: 'sk-full', name: 'fake-model' }, gateway: { http: { port: 0 } }, stream: { edit_interval: '250ms' } }));
  const logFile = path.join(profileDir, 'logs', 'gateway.log');
  symlinkSync('/dev/full', logFile);
  model.enqueue({ text: 'first answer' }, { text: 'second answer' }, { text: 'third answer' });
  const gateway = startGatewayProcess({ home, profile: 'crash', loopbackUrl: platform.baseURL });
  const env = { HERMES_HOME: home, HOME: home };
  try {
    await until({ what: 'the gateway to run', timeoutMs: 30_000, output: gateway.output, check: () => /hermes gateway running/.test(gateway.output()) || !gateway.alive() });
    platform.pushUpdate({ chatId: 'c1', senderId: 'u1', text: 'hello', messageId: 'm1' });
    await until({ what: 'the first answer', timeoutMs: 20_000, output: gateway.output, check: () => platform.chat('c1')[0]?.text === 'first answer' || !gateway.alive() });
    // The tester saw it exit within ~2 s; give it more than that.
    await new Promise((r) => setTimeout(r, 3000));
    assert.ok(gateway.alive(), `the gateway exited:\n${gateway.output()}`);
    platform.pushUpdate({ chatId: 'c1', senderId: 'u1', text: 'still there?', messageId: 'm2' });
    await until({ what: 'the second answer', timeoutMs: 20_000, output: gateway.output, check: () => platform.chat('c1').some((m) => m.text === 'second answer') });

    const health = await healthOf({ profileDir });
    assert.equal(health?.status, 'degraded', JSON.stringify(health));
    assert.equal(health?.disk?.state, 'degraded');
    assert.equal(health?.disk?.reason, 'disk full');
    const status = await cli({ argv: ['status'], env });
    assert.match(status.stdout, /^crash: running \(pid \d+, up \d+s\), degraded: disk full$/m, status.stdout);
    assert.match(status.stdout, /^ {2}disk: the log file cannot be written \(disk full, ENOSPC\) since \d{4}-/m, status.stdout);
    assert.equal(status.code, 1, 'a degraded disk is a problem to fix');
    // Log lines fell back to stderr (JSON lines, secrets still redacted).
    assert.match(gateway.output(), /logging to stderr until it can/);
    assert.match(gateway.output(), /"msg":"turn finished"/);

    // Space returns: the log path is a writable file again. The gateway finds out by itself.
    rmSync(logFile);
    await until({ what: '/healthz ok again', timeoutMs: 30_000, output: gateway.output, check: async () => (await healthOf({ profileDir }))?.status === 'ok' });
    platform.pushUpdate({ chatId: 'c1', senderId: 'u1', text: 'and now?', messageId: 'm3' });
    await until({ what: 'the third answer', timeoutMs: 20_000, output: gateway.output, check: () => platform.chat('c1').some((m) => m.text === 'third answer') });
    const back = await cli({ argv: ['status'], env });
    assert.match(back.stdout, /^crash: running \(pid \d+, up \d+s\), ok$/m, back.stdout);
    gateway.proc.kill('SIGTERM');
    assert.equal(await gateway.exited, 0, gateway.output());
    const log = readFileSync(logFile, 'utf8');
    assert.match(log, /"msg":"turn finished"/, 'lines logged after recovery reach the file');
    assert.doesNotMatch(log, /sk-full/);
  } finally {
    gateway.proc.kill('SIGKILL');
    await model.close();
    await platform.close();
    rmSync(home, { recursive: true, force: true });
  }
});

// Where the log file's lines go instead (stderr) can fail too: the journal restarted, `gateway run 2>&1 | head` ended.
test('a log file on a full disk and a stderr nobody reads any more (EPIPE): the gateway stays up and answers', { timeout: 90_000, skip: existsSync('/dev/full') ? false : 'no /dev/full on this machine' }, async () => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-epipe-'));
  const model = new FakeOpenAI();
  const platform = new LoopbackPlatform();
  await model.start();
  await platform.start();
  const profileDir = path.join(home, 'profiles', 'crash');
  mkdirSync(path.join(profileDir, 'logs'), { recursive: true });
  writeFileSync(path.join(profileDir, 'config.yaml'), stringify({ model: { base_url: model.baseURL, api_key: 'sk-full', name: 'fake-model' }, gateway: { http: { port: 0 } }, stream: { edit_interval: '250ms' } }));
  symlinkSync('/dev/full', path.join(profileDir, 'logs', 'gateway.log'));
  model.enqueue({ text: 'first answer' }, { text: 'second answer' });
  const gateway = startGatewayProcess({ home, profile: 'crash', loopbackUrl: platform.baseURL });
  try {
    await until({ what: 'the gateway to run', timeoutMs: 30_000, output: gateway.output, check: () => /hermes gateway running/.test(gateway.output()) || !gateway.alive() });
    platform.pushUpdate({ chatId: 'c1', senderId: 'u1', text: 'hello', messageId: 'm1' });
    await until({ what: 'the first answer', timeoutMs: 20_000, output: gateway.output, check: () => platform.chat('c1')[0]?.text === 'first answer' || !gateway.alive() });
    gateway.proc.stderr?.destroy();
    platform.pushUpdate({ chatId: 'c1', senderId: 'u1', text: 'still there?', messageId: 'm2' });
    await until({ what: 'the second answer', timeoutMs: 20_000, output: gateway.output, check: () => platform.chat('c1').some((m) => m.text === 'second answer') || !gateway.alive() });
    await new Promise((r) => setTimeout(r, 1000));
    assert.ok(gateway.alive(), `the gateway exited (code ${String(await Promise.race([gateway.exited, Promise.resolve('?')]))}):\n${gateway.output()}`);
    assert.ok(platform.chat('c1').some((m) => m.text === 'second answer'));
    gateway.proc.kill('SIGTERM');
    assert.equal(await gateway.exited, 0, gateway.output());
  } finally {
    gateway.proc.kill('SIGKILL');
    await model.close();
    await platform.close();
    rmSync(home, { recursive: true, force: true });
  }
});
