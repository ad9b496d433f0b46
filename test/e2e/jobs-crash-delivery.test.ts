import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { DeliveryTarget, JobRow } from '../../src/store/job-types.js';
import type { LoopbackPlatform } from '../fakes/loopback/server.js';
import { until, type GatewayProcess } from '../helpers/gateway-process.js';
import { startCrashRig, waitDelivered, withStoreAt } from '../helpers/jobs-crash.js';

/** A loopback chat target. */
function chat(id: string, origin: boolean): DeliveryTarget {
  return { kind: 'chat', platform: 'loopback', chat: { id, kind: 'dm' }, origin };
}

/** A one-shot job due a second ago (the child runs it as soon as it starts). */
function dueJob(params: { dbPath: string; prompt: string; script?: string; targets: readonly DeliveryTarget[] }): JobRow {
  const atMs = Date.now() - 1000;
  return withStoreAt(params.dbPath, (store) =>
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

/** Waits (bounded) until the held send arrived, then kills the child (-9) and lets the platform take sends again. */
async function killAtHeldSend(params: { held: Promise<void>; proc: GatewayProcess; platform: LoopbackPlatform }): Promise<void> {
  let arrived = false;
  void params.held.then(() => (arrived = true));
  await until({ what: 'the held send', timeoutMs: 30_000, output: params.proc.output, check: () => arrived });
  params.proc.proc.kill('SIGKILL');
  await params.proc.exited;
  params.platform.beforeSend = null;
}

test('kill -9 while a long answer goes to a further target (its first part sent): after restart only the missing part is sent, each once', { timeout: 90_000 }, async () => {
  const rig = await startCrashRig({ tmpPrefix: 'hermes-jobs-crash-delivery-' });
  const { fake, platform, dbPath } = rig;
  // Longer than the platform's 4096 characters: two messages per target.
  const full = Array.from({ length: 1200 }, (_, i) => `w${i}`).join(' ');
  fake.setResponder(() => ({ text: full }));
  const job = dueJob({ dbPath, prompt: 'Report.', targets: [chat('c1', true), chat('c2', false)] });
  const held = holdSend({ platform, chatId: 'c2', nth: 2 });
  let proc = rig.spawn();
  try {
    await killAtHeldSend({ held, proc, platform });
    assert.equal(platform.chat('c1').length, 2, 'the first target got its two parts');
    assert.equal(platform.chat('c2').length, 1, 'the further target got its first part before the kill');
    proc = rig.spawn();
    await waitDelivered({ proc, dbPath, jobId: job.id, what: 'the run delivered', timeoutMs: 30_000 });
    const c1 = platform.chat('c1');
    const c2 = platform.chat('c2');
    assert.equal(c2.length, 2, 'the first part is not sent again');
    assert.equal(c2.map((m) => m.text).join(' '), full);
    assert.deepEqual(c1.map((m) => m.text), c2.map((m) => m.text));
    assert.equal(fake.requests.length, 1, 'the model was asked once');
    const [run] = withStoreAt(dbPath, (s) => s.runsOf({ jobId: job.id, limit: 5 }));
    assert.equal(run?.attempts, 1);
    const ids = new Map(run?.deliveries.map((d) => [d.target, d.messageIds]));
    assert.deepEqual(ids.get('loopback:c1'), c1.map((m) => m.id));
    assert.deepEqual(ids.get('loopback:c2'), c2.map((m) => m.id), 'every part once, in order');
  } finally {
    await rig.close(proc);
  }
});

test('kill -9 between a script job’s command and its delivery: after restart the kept output is delivered, the command never runs again', { timeout: 90_000 }, async () => {
  const rig = await startCrashRig({ tmpPrefix: 'hermes-jobs-crash-delivery-' });
  const { fake, platform, dbPath } = rig;
  const counter = path.join(rig.home, 'runs.txt');
  const job = dueJob({ dbPath, prompt: '', script: `echo ran >> '${counter}'; echo "disk 95%"`, targets: [chat('c1', true)] });
  const held = holdSend({ platform, chatId: 'c1', nth: 1 });
  let proc = rig.spawn();
  try {
    await killAtHeldSend({ held, proc, platform });
    assert.equal(readFileSync(counter, 'utf8'), 'ran\n', 'the command ran before the kill');
    assert.equal(platform.chat('c1').length, 0);
    proc = rig.spawn();
    await waitDelivered({ proc, dbPath, jobId: job.id, what: 'the run delivered', timeoutMs: 30_000 });
    assert.equal(readFileSync(counter, 'utf8'), 'ran\n', 'the command ran once for its scheduled time');
    const shown = platform.chat('c1');
    assert.deepEqual(shown.map((m) => m.text), ['disk 95%']);
    const [run] = withStoreAt(dbPath, (s) => s.runsOf({ jobId: job.id, limit: 5 }));
    assert.deepEqual(run?.deliveries[0]?.messageIds, [shown[0]?.id]);
    assert.equal(fake.requests.length, 0, 'no model call');
  } finally {
    await rig.close(proc);
  }
});
