import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { CheckConfig } from '../../../src/config/unasked-schema.js';
import { checkPrompt, runCheck, runChecks, type CommandRunner } from '../../../src/jobs/checks.js';
import { fileFiredChecks, firedChecksFile } from '../../../src/jobs/checks-fired.js';
import type { CommandResult } from '../../../src/tools/builtin/run-command.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { captureLogger, recordingInject, waitFor } from './unasked-helpers.js';

const MINUTE = 60_000;
const limits = { timeoutMs: 10_000, maxOutputBytes: 65_536 };

/** A check as the config schema produces it. */
function check(fields: Partial<CheckConfig> & Pick<CheckConfig, 'name' | 'command'>): CheckConfig {
  return { interval: 5 * MINUTE, once: false, prompt: undefined, target: undefined, ...fields };
}

/** A scripted runner: each call waits for `release` (when given) and answers `result`; counts its calls. */
function scriptedRunner(params: { result: Partial<CommandResult>; gate?: (params: { signal: AbortSignal }) => Promise<void> }): { run: CommandRunner; calls: string[] } {
  const calls: string[] = [];
  const run: CommandRunner = async (args) => {
    calls.push(args.command);
    await params.gate?.({ signal: args.signal });
    return { output: '', exitCode: 0, exitSignal: null, killedFor: undefined, ...params.result };
  };
  return { run, calls };
}

describe('checks', () => {
  let dir: string;
  let workspace: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'checks-'));
    workspace = path.join(dir, 'workspace');
    mkdirSync(workspace);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const base = () => ({ workspace, limits, fired: fileFiredChecks({ file: firedChecksFile({ profileDir: dir }) }) });

  test('a check printing "disk 95%" produces exactly one inject call, framed as the output of that check, to its home channel', async () => {
    const clock = new FakeClock();
    const { inject, requests } = recordingInject();
    const { logger } = captureLogger();
    const stop = new AbortController();
    const disk = check({ name: 'disk', command: "printf 'disk 95%%\\n'" });
    const running = runChecks({ ...base(), checks: [disk], defaultTarget: 'slack', inject, clock, signal: stop.signal, logger });
    await clock.advance(4 * MINUTE);
    assert.equal(requests.length, 0, 'nothing before the first interval');
    await clock.advance(MINUTE);
    await waitFor(() => requests.length > 0, 'the inject call');
    await new Promise((resolve) => setTimeout(resolve, 200));
    await clock.advance(0);
    assert.equal(requests.length, 1);
    const [request] = requests;
    assert.equal(request?.source, 'check');
    assert.equal(request?.name, 'disk');
    assert.equal(request?.platform, 'slack');
    assert.match(request?.prompt ?? '', /output of the check "disk"/);
    assert.match(request?.prompt ?? '', /<check-output name="disk">\ndisk 95%\n<\/check-output>/);
    stop.abort();
    await running;
  });

  test('a check printing nothing (exit 0) produces no inject call; the command ran in the workspace', async () => {
    const clock = new FakeClock();
    const { inject, requests } = recordingInject();
    const { logger, lines } = captureLogger();
    const stop = new AbortController();
    const quiet = check({ name: 'quiet', command: 'touch ran-here' });
    const running = runChecks({ ...base(), checks: [quiet], defaultTarget: 'telegram', inject, clock, signal: stop.signal, logger });
    await clock.advance(5 * MINUTE);
    await waitFor(() => lines.some((l) => l.msg === 'check: no output, nothing to say'), 'the quiet run');
    assert.equal(existsSync(path.join(workspace, 'ran-here')), true, 'the command runs with the workspace as its directory');
    assert.equal(requests.length, 0);
    stop.abort();
    await running;
  });

  test('a custom prompt frames the output', () => {
    const text = checkPrompt({ check: { name: 'mail', prompt: 'New mail arrived; summarise it.' }, output: 'From: bank' });
    assert.equal(text, 'New mail arrived; summarise it.\n\n<check-output name="mail">\nFrom: bank\n</check-output>');
  });

  test('a failing command warns once per change of state, not every interval, and injects nothing', async () => {
    const clock = new FakeClock();
    const { inject, requests } = recordingInject();
    const { logger, lines } = captureLogger();
    const stop = new AbortController();
    let result: Partial<CommandResult> = { exitCode: 3, output: 'boom' };
    const calls: string[] = [];
    const run: CommandRunner = async (args) => {
      calls.push(args.command);
      return { output: '', exitCode: 0, exitSignal: null, killedFor: undefined, ...result };
    };
    const running = runCheck({ ...base(), check: check({ name: 'broken', command: 'exit 3' }), platform: 'telegram', inject, clock, signal: stop.signal, logger, run });
    await clock.advance(15 * MINUTE);
    assert.equal(calls.length, 3);
    const warns = (): number => lines.filter((l) => l.level === 40).length;
    assert.equal(warns(), 1, 'three failing runs, one warn');
    result = { exitCode: 0, output: '' };
    await clock.advance(5 * MINUTE);
    assert.ok(lines.some((l) => l.msg === 'check: command recovered'));
    result = { killedFor: 'timeout', exitCode: null, exitSignal: 'SIGTERM' };
    await clock.advance(10 * MINUTE);
    assert.equal(warns(), 2, 'failing again after recovering: one more warn');
    assert.equal(requests.length, 0);
    stop.abort();
    await running;
  });

  test('once: retired after it fired, and still retired after a restart (checks-fired.json); a changed command re-arms it', async () => {
    const clock = new FakeClock();
    const file = firedChecksFile({ profileDir: dir });
    const { inject, requests } = recordingInject();
    const { logger } = captureLogger();
    const { run, calls } = scriptedRunner({ result: { output: 'the file appeared\n' } });
    const once = check({ name: 'appeared', command: 'test -f x && echo the file appeared', once: true });
    const common = { workspace, limits, check: once, platform: 'telegram', inject, clock, logger, run } as const;
    const first = runCheck({ ...common, fired: fileFiredChecks({ file }), signal: new AbortController().signal });
    await clock.advance(5 * MINUTE);
    await first; // it retired itself: resolved without an abort
    await clock.advance(20 * MINUTE);
    assert.equal(requests.length, 1);
    assert.equal(calls.length, 1);
    assert.equal(clock.pending, 0);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { command: string }>;
    assert.equal(stored['appeared']?.command, once.command);
    // A restart reads the file: the check stays retired and its command never runs.
    await runCheck({ ...common, fired: fileFiredChecks({ file }), signal: new AbortController().signal });
    await clock.advance(10 * MINUTE);
    assert.equal(calls.length, 1);
    // Editing the command re-arms it.
    const edited = runCheck({ ...common, check: { ...once, command: 'echo changed' }, fired: fileFiredChecks({ file }), signal: new AbortController().signal });
    await clock.advance(5 * MINUTE);
    await edited;
    assert.equal(calls.length, 2);
    assert.equal(requests.length, 2);
  });

  test('once: an inject that fails does not retire the check; the next interval tries again', async () => {
    const clock = new FakeClock();
    const file = firedChecksFile({ profileDir: dir });
    let failing = true;
    const { inject, requests } = recordingInject({ fail: () => failing });
    const { logger, lines } = captureLogger();
    const { run, calls } = scriptedRunner({ result: { output: 'up\n' } });
    const once = check({ name: 'host-up', command: 'echo up', once: true });
    const running = runCheck({ workspace, limits, check: once, platform: 'telegram', inject, clock, logger, run, fired: fileFiredChecks({ file }), signal: new AbortController().signal });
    await clock.advance(5 * MINUTE);
    assert.equal(existsSync(file), false);
    assert.ok(lines.some((l) => l.level === 40 && l.msg === 'check: the turn could not be injected'));
    failing = false;
    await clock.advance(5 * MINUTE);
    await running;
    assert.equal(calls.length, 2);
    assert.equal(requests.length, 1);
    assert.equal(existsSync(file), true);
  });

  test('once: when recording that it fired fails, it is still retired for this run of the gateway (one warn)', async () => {
    const clock = new FakeClock();
    const { inject, requests } = recordingInject();
    const { logger, lines } = captureLogger();
    const { run, calls } = scriptedRunner({ result: { output: 'found\n' } });
    const fired = { hasFired: () => false, markFired: () => { throw new Error('ENOSPC'); } };
    const running = runCheck({ workspace, limits, fired, check: check({ name: 'full', command: 'echo found', once: true }), platform: 'telegram', inject, clock, logger, run, signal: new AbortController().signal });
    await clock.advance(5 * MINUTE);
    await running;
    await clock.advance(20 * MINUTE);
    assert.equal(calls.length, 1);
    assert.equal(requests.length, 1);
    assert.equal(lines.filter((l) => l.level === 40).length, 1);
  });

  test('overlapping runs of a slow check do not pile up', async () => {
    const clock = new FakeClock();
    const { inject } = recordingInject();
    const { logger } = captureLogger();
    let release: () => void = () => undefined;
    const { run, calls } = scriptedRunner({ result: { output: '' }, gate: ({ signal }) =>
        new Promise<void>((resolve) => {
          release = resolve;
          signal.addEventListener('abort', () => resolve(), { once: true });
        }),
    });
    const stop = new AbortController();
    const running = runCheck({ ...base(), check: check({ name: 'slow', command: 'sleep 1000' }), platform: 'telegram', inject, clock, signal: stop.signal, logger, run });
    await clock.advance(5 * MINUTE);
    await clock.advance(20 * MINUTE);
    assert.equal(calls.length, 1, 'four more times fell due while the first run was still going: none started');
    release();
    await clock.advance(0);
    await clock.advance(5 * MINUTE);
    assert.equal(calls.length, 2, 'the next grid time after it ended runs');
    stop.abort();
    await running;
    assert.equal(clock.pending, 0);
  });

  test('abort stops every loop and the running command', async () => {
    const clock = new FakeClock();
    const { inject } = recordingInject();
    const { logger } = captureLogger();
    const stop = new AbortController();
    const checks = [check({ name: 'a', command: 'sleep 30' }), check({ name: 'b', command: 'true', interval: 7 * MINUTE })];
    const running = runChecks({ ...base(), checks, defaultTarget: 'telegram', inject, clock, signal: stop.signal, logger });
    await clock.advance(5 * MINUTE);
    stop.abort();
    const started = Date.now();
    await clock.advance(3_000); // the kill grace after SIGTERM runs on the fake clock
    await running;
    assert.ok(Date.now() - started < 10_000, 'the sleeping command was killed, not waited for');
    assert.equal(clock.pending, 0);
  });

  test('a check with no target and no heartbeat.target is not run (one warn)', async () => {
    const clock = new FakeClock();
    const { inject } = recordingInject();
    const { logger, lines } = captureLogger();
    const { run, calls } = scriptedRunner({ result: { output: 'x' } });
    await runChecks({ ...base(), checks: [check({ name: 'lost', command: 'echo x' })], defaultTarget: undefined, inject, clock, signal: new AbortController().signal, logger, run });
    assert.equal(calls.length, 0);
    assert.equal(lines.filter((l) => l.level === 40).length, 1);
  });
});

