import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { logs } from '../../src/cli/logs-cmd.js';
import { RotatingFileStream } from '../../src/log/rotating-file.js';
import { systemClock } from '../../src/core/clock.js';
import { cli } from '../helpers/cli.js';
import { captureIO } from '../unit/cli/ops-support.js';

const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-logs-'));
after(() => rmSync(home, { recursive: true, force: true }));
const env = { HERMES_HOME: home, HOME: home };
const logsDir = (name: string): string => path.join(home, 'profiles', name, 'logs');

/** One pino-style JSON line. */
function entry(msg: string, level = 30): string {
  return `${JSON.stringify({ level, time: '2025-01-02T03:04:05.000Z', pid: 1, hostname: 'h', profile: 'p', msg })}\n`;
}

/** Polls until `check` is true (real time; the follower polls every 20 ms). */
async function eventually(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('prints the last N lines pretty (msg, level), or raw with --json; a clear message when there is no log', async () => {
  mkdirSync(logsDir('work'), { recursive: true });
  writeFileSync(path.join(logsDir('work'), 'gateway.log'), Array.from({ length: 150 }, (_, i) => entry(`line ${i}`, i === 149 ? 50 : 30)).join(''));
  const pretty = await cli({ argv: ['-p', 'work', 'logs', '-n', '3'], env });
  assert.equal(pretty.code, 0, pretty.stderr);
  const lines = pretty.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 3);
  assert.match(lines[0] ?? '', /INFO.*: line 147$/);
  assert.match(lines[2] ?? '', /ERROR.*: line 149$/);
  assert.doesNotMatch(pretty.stdout, /\u001b\[/, 'no colors when stdout is not a terminal');
  const byDefault = await cli({ argv: ['-p', 'work', 'logs'], env });
  assert.equal(byDefault.stdout.trimEnd().split('\n').length, 100);
  assert.match(byDefault.stdout, /line 50\n/);
  const json = await cli({ argv: ['-p', 'work', 'logs', '-n', '2', '--json'], env });
  assert.equal(json.stdout, entry('line 148') + entry('line 149', 50));

  mkdirSync(path.join(home, 'profiles', 'empty'), { recursive: true }); // a profile that exists but never ran
  const none = await cli({ argv: ['-p', 'empty', 'logs'], env });
  assert.equal(none.code, 1);
  assert.match(none.stderr, /no log yet for profile "empty" .*hermes -p empty gateway run/);
});

test('-f follows appended lines and carries on across a rotation to gateway.log.1, until aborted', async () => {
  mkdirSync(logsDir('live'), { recursive: true });
  const file = path.join(logsDir('live'), 'gateway.log');
  writeFileSync(file, entry('before'));
  const { io, stdout } = captureIO({ env });
  const controller = new AbortController();
  const following = logs({ options: { profile: 'live' }, io, lines: 10, follow: true, json: false, signal: controller.signal, clock: systemClock, pollMs: 20 });
  await eventually(() => stdout().includes('before'), 'the existing line');

  appendFileSync(file, entry('appended'));
  await eventually(() => stdout().includes('appended'), 'an appended line');

  // The gateway's own rotating stream, sized so that exactly one more line fits: the next one rotates the file.
  const maxSize = Buffer.byteLength(entry('before') + entry('appended') + entry('last in old file'));
  const stream = new RotatingFileStream({ file, maxSize, maxFiles: 2 });
  stream.write(entry('last in old file'));
  stream.write(entry('first in new file'));
  stream.write(entry('second in new file'));
  await stream.close();
  assert.ok(existsSync(`${file}.1`), 'the file was rotated');
  await eventually(() => stdout().includes('second in new file'), 'lines after the rotation');
  controller.abort();
  assert.equal(await following, 0);
  const order = ['before', 'appended', 'last in old file', 'first in new file', 'second in new file'].map((m) => stdout().indexOf(`: ${m}`));
  assert.ok(order.every((at, i) => at >= 0 && (i === 0 || at > (order[i - 1] ?? 0))), stdout());
  assert.equal(stdout().split('first in new file').length, 2, 'no line printed twice');
});
