import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import type { DeliveryTarget, JobRow } from '../../src/jobs/job-types.js';
import { openStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { systemClock } from '../../src/util/clock.js';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { LoopbackPlatform } from '../fakes/loopback/server.js';
import { startGatewayProcess, until, type GatewayProcess } from '../helpers/gateway-process.js';

/** A profile home for a `gateway run` child against the fakes. */
function makeHome(params: { fake: FakeOpenAI }): { home: string; dbPath: string } {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-jobs-crash-delivery-'));
  const profileDir = path.join(home, 'profiles', 'crash');
  mkdirSync(profileDir, { recursive: true });
  writeFileSync(
    path.join(profileDir, 'config.yaml'),
    stringify({ model: { base_url: params.fake.baseURL, api_key: 'sk-jobs-crash', name: 'fake' }, gateway: { http: { port: 0 }, drain_timeout: '5s' }, timezone: 'UTC' }),
  );
  return { home, dbPath: path.join(profileDir, 'state.db') };
}

/** Runs `fn` on a second handle of the profile's store. */
function withStore<T>(dbPath: string, fn: (store: Store) => T): T {
  const store = openStore({ path: dbPath, clock: systemClock });
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

/** A loopback chat target. */
function chat(id: string, origin: boolean): DeliveryTarget {
  return { kind: 'chat', platform: 'loopback', chat: { id, kind: 'dm' }, origin };
}

/** A one-shot job due a second ago (the child runs it as soon as it starts). */
function dueJob(params: { dbPath: string; prompt: string; script?: string; targets: readonly DeliveryTarget[] }): JobRow {
  const atMs = Date.now() - 1000;
  return withStore(params.dbPath, (store) =>
    store.createJob({ name: 'Crash delivery', prompt: params.prompt, script: params.script ?? null, scheduleText: 'once', schedule: { kind: 'once', atMs }, timeZone: 'UTC', targets: params.targets, nextRunAt: atMs }),
  );
}

/** Holds the `nth` sendMessage to `chatId` forever; resolves `reached` when it arrives (the process is then killed). */
function holdSend(params: { platform: LoopbackPlatform; chatId: string; nth: number }): Promise<void> {
  let seen = 0;
  return new Promise<void>((reached) => {
    params.platform.beforeSend = (body) => {
      if (String(body['chat_id']) !== params.chatId || ++seen !== params.nth) return undefined;
      reached();
      return new Promise<void>(() => undefined);
    };
  });
}

/** Waits (bounded) until the held send arrived. */
async function reach(params: { held: Promise<void>; proc: GatewayProcess }): Promise<void> {
  let arrived = false;
  void params.held.then(() => (arrived = true));
  await until({ what: 'the held send', timeoutMs: 30_000, output: params.proc.output, check: () => arrived });
}

/** Waits until the job's newest run is delivered (and a little longer, for any stray send). */
async function delivered(params: { proc: GatewayProcess; dbPath: string; jobId: string }): Promise<void> {
  await until({ what: 'the run delivered', timeoutMs: 30_000, output: params.proc.output, check: () => withStore(params.dbPath, (s) => s.runsOf({ jobId: params.jobId, limit: 5 })[0]?.outcome === 'delivered') });
  await new Promise((r) => setTimeout(r, 500));
}

test('kill -9 while a long answer goes to a further target (its first part sent): after restart only the missing part is sent, each once', { timeout: 90_000 }, async () => {
  const fake = new FakeOpenAI();
  const platform = new LoopbackPlatform();
  await fake.start();
  await platform.start();
  const { home, dbPath } = makeHome({ fake });
  // Longer than the platform's 4096 characters: two messages per target.
  const full = Array.from({ length: 1200 }, (_, i) => `w${i}`).join(' ');
  fake.setResponder(() => ({ text: full }));
  const job = dueJob({ dbPath, prompt: 'Report.', targets: [chat('c1', true), chat('c2', false)] });
  const held = holdSend({ platform, chatId: 'c2', nth: 2 });
  let proc = startGatewayProcess({ home, profile: 'crash', loopbackUrl: platform.baseURL });
  try {
    await reach({ held, proc });
    proc.proc.kill('SIGKILL');
    await proc.exited;
    platform.beforeSend = null;
    assert.equal(platform.chat('c1').length, 2, 'the first target got its two parts');
    assert.equal(platform.chat('c2').length, 1, 'the further target got its first part before the kill');
    proc = startGatewayProcess({ home, profile: 'crash', loopbackUrl: platform.baseURL });
    await delivered({ proc, dbPath, jobId: job.id });
    const c1 = platform.chat('c1');
    const c2 = platform.chat('c2');
    assert.equal(c2.length, 2, 'the first part is not sent again');
    assert.equal(c2.map((m) => m.text).join(' '), full);
    assert.deepEqual(c1.map((m) => m.text), c2.map((m) => m.text));
    assert.equal(fake.requests.length, 1, 'the model was asked once');
    const [run] = withStore(dbPath, (s) => s.runsOf({ jobId: job.id, limit: 5 }));
    assert.equal(run?.attempts, 1);
    const ids = new Map(run?.deliveries.map((d) => [d.target, d.messageIds]));
    assert.deepEqual(ids.get('loopback:c1'), c1.map((m) => m.id));
    assert.deepEqual(ids.get('loopback:c2'), c2.map((m) => m.id), 'every part once, in order');
  } finally {
    proc.proc.kill('SIGKILL');
    await fake.close();
    await platform.close();
    rmSync(home, { recursive: true, force: true });
  }
});

test('kill -9 between a script job’s command and its delivery: after restart the kept output is delivered, the command never runs again', { timeout: 90_000 }, async () => {
  const fake = new FakeOpenAI();
  const platform = new LoopbackPlatform();
  await fake.start();
  await platform.start();
  const { home, dbPath } = makeHome({ fake });
  const counter = path.join(home, 'runs.txt');
  const job = dueJob({ dbPath, prompt: '', script: `echo ran >> '${counter}'; echo "disk 95%"`, targets: [chat('c1', true)] });
  const held = holdSend({ platform, chatId: 'c1', nth: 1 });
  let proc = startGatewayProcess({ home, profile: 'crash', loopbackUrl: platform.baseURL });
  try {
    await reach({ held, proc });
    proc.proc.kill('SIGKILL');
    await proc.exited;
    platform.beforeSend = null;
    assert.equal(readFileSync(counter, 'utf8'), 'ran\n', 'the command ran before the kill');
    assert.equal(platform.chat('c1').length, 0);
    proc = startGatewayProcess({ home, profile: 'crash', loopbackUrl: platform.baseURL });
    await delivered({ proc, dbPath, jobId: job.id });
    assert.equal(readFileSync(counter, 'utf8'), 'ran\n', 'the command ran once for its scheduled time');
    const shown = platform.chat('c1');
    assert.deepEqual(shown.map((m) => m.text), ['disk 95%']);
    const [run] = withStore(dbPath, (s) => s.runsOf({ jobId: job.id, limit: 5 }));
    assert.deepEqual(run?.deliveries[0]?.messageIds, [shown[0]?.id]);
    assert.equal(fake.requests.length, 0, 'no model call');
  } finally {
    proc.proc.kill('SIGKILL');
    await fake.close();
    await platform.close();
    rmSync(home, { recursive: true, force: true });
  }
});
