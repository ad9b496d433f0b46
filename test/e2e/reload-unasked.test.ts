import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import { parse, stringify } from 'yaml';
import { GatewayReloader, type ReloadOutcome } from '../../src/app/reload.js';
import { UnaskedLoops } from '../../src/gateway/inject/unasked-loops.js';
import { Redactor } from '../../src/log/redact.js';
import { builtinTools } from '../../src/tools/builtin/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { driveUntil } from '../helpers/jobs.js';

const minute = 60_000;
/** The reloader sets its logger's level from the config (info): lines go nowhere. */
const logger = pino({ level: 'silent' }, { write: () => undefined });

/** Lines a check command appended to `file` (how often it ran). */
function lines(file: string): number {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').length : 0;
}

/** Moves fake time on by `ms` in one-minute steps, letting the check commands (real processes) run between steps. */
async function pass(params: { clock: FakeClock; ms: number }): Promise<void> {
  for (let done = 0; done < params.ms; done += minute) {
    await params.clock.advance(minute);
    await new Promise((r) => setTimeout(r, 30));
  }
}

/** Rewrites the profile's config.yaml with `checks` (undefined: the section removed) and reloads, as SIGHUP does. */
async function reloadWithChecks(params: { h: Harness; reloader: GatewayReloader; checks: readonly Record<string, unknown>[] | undefined }): Promise<ReloadOutcome> {
  const raw = parse(readFileSync(params.h.profile.configPath, 'utf8')) as Record<string, unknown>;
  if (params.checks === undefined) delete raw['checks'];
  else raw['checks'] = params.checks;
  writeFileSync(params.h.profile.configPath, stringify(raw));
  return params.reloader.request();
}

test('reload: a check added by a reload runs on its interval; a changed one runs only its new command; a removed one stops', { timeout: 60_000 }, async () => {
  const clock = new FakeClock();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-reload-checks-'));
  const first = path.join(dir, 'first');
  const second = path.join(dir, 'second');
  const h = await startHarness({ clock, config: { timezone: 'UTC' } });
  const store = h.readStore();
  const loops = new UnaskedLoops({ profileDir: h.profile.dir, profileName: () => h.profile.name, store, inject: (p) => h.runner.inject(p), clock, logger });
  const registry = new ToolRegistry();
  for (const tool of builtinTools()) registry.register(tool);
  const reloader = new GatewayReloader({ profile: h.profile, env: {}, config: h.config, runner: h.runner, http: undefined, registry, redactor: new Redactor({ secrets: [] }), logger, clock, unasked: loops });
  try {
    assert.equal(await loops.apply({ config: h.config }), 'unchanged', 'no heartbeat and no checks at start: nothing runs');
    await pass({ clock, ms: 3 * minute });
    assert.equal(lines(first), 0);

    const added = await reloadWithChecks({ h, reloader, checks: [{ name: 'probe', command: `echo run >> ${first}`, interval: '1m', target: 'telegram' }] });
    assert.ok(added.ok, JSON.stringify(added));
    assert.ok(added.live.includes('checks'), `checks applied: ${JSON.stringify(added)}`);
    assert.deepEqual(added.restartNeeded, [], 'a changed checks section needs no restart');
    await driveUntil({ clock, check: () => lines(first) >= 3, what: 'three runs of the added check', stepMs: 10_000 });

    const changed = await reloadWithChecks({ h, reloader, checks: [{ name: 'probe', command: `echo run >> ${second}`, interval: '1m', target: 'telegram' }] });
    assert.ok(changed.ok);
    const firstRuns = lines(first);
    await driveUntil({ clock, check: () => lines(second) >= 2, what: 'two runs of the changed check', stepMs: 10_000 });
    await pass({ clock, ms: 2 * minute });
    assert.equal(lines(first), firstRuns, 'the old command ran after the reload replaced it');

    const removed = await reloadWithChecks({ h, reloader, checks: undefined });
    assert.ok(removed.ok);
    assert.ok(removed.live.includes('checks'));
    const secondRuns = lines(second);
    await pass({ clock, ms: 5 * minute });
    assert.equal(lines(second), secondRuns, 'the removed check ran on further intervals');
    assert.equal(lines(first), firstRuns);
    assert.equal(h.fake.requests.length, 0, 'checks printing nothing never call the model');
  } finally {
    await reloader.close();
    await loops.stop();
    store.close();
    await h.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('UnaskedLoops: an unchanged config on reload leaves the running loops alone; stop makes later applies do nothing', { timeout: 60_000 }, async () => {
  const clock = new FakeClock();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-reload-checks-'));
  const runs = path.join(dir, 'runs');
  const h = await startHarness({ clock, config: { timezone: 'UTC', checks: [{ name: 'probe', command: `echo run >> ${runs}`, interval: '10m', target: 'telegram' }] } });
  const store = h.readStore();
  const loops = new UnaskedLoops({ profileDir: h.profile.dir, profileName: () => h.profile.name, store, inject: (p) => h.runner.inject(p), clock, logger: h.logger });
  try {
    assert.equal(await loops.apply({ config: h.config }), 'started');
    await pass({ clock, ms: 6 * minute });
    // Same config again (a reload that changed something else): the 10-minute grid is not started over.
    assert.equal(await loops.apply({ config: structuredClone(h.config) }), 'unchanged');
    await pass({ clock, ms: 4 * minute });
    await driveUntil({ clock, check: () => lines(runs) === 1, what: 'the run at 10 minutes', stepMs: 1000, maxMs: 30_000 });
    await loops.stop();
    assert.equal(await loops.apply({ config: { ...h.config, checks: [] } }), 'unchanged', 'applied after stop');
    await pass({ clock, ms: 20 * minute });
    assert.equal(lines(runs), 1, 'a stopped check ran');
  } finally {
    await loops.stop();
    store.close();
    await h.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
