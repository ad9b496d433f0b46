import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import { scrubStoredHistory } from '../../../src/gateway/sessions/history-scrub.js';
import { cronCapability } from '../../../src/jobs/cron-capability.js';
import type { NewJob } from '../../../src/store/job-types.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeTempDir } from './fixtures.js';

const secret = 'SCRUBjob-Qm7Tx3Lp9Zr2';
const scrub = (text: string): string => text.split(secret).join('[REDACTED]');
const T = Date.parse('2026-12-01T10:00:00Z');

function job(index: number): NewJob {
  return {
    name: `job ${index} ${secret}`,
    prompt: `call the API with ${secret}`,
    script: index % 2 === 0 ? `curl -H "key: ${secret}" localhost` : null,
    scheduleText: 'every 1h',
    schedule: { kind: 'interval', everyMs: 3_600_000, anchorMs: T },
    timeZone: 'UTC',
    targets: [{ kind: 'chat', platform: 'telegram', chat: { id: '42', kind: 'dm' }, origin: true }],
    nextRunAt: T,
  };
}

test('the history scrub rewrites jobs (name, prompt, script) and the errors of runs and deliveries written before a secret was known', async () => {
  const { dir, cleanup } = makeTempDir();
  const clock = new FakeClock(T);
  const store = openStore({ path: path.join(dir, 'state.db'), clock });
  try {
    // More jobs than one batch holds: paging by position must reach every one.
    const jobs = Array.from({ length: 7 }, (_, i) => store.createJob(job(i)));
    const run = store.claimRun({ jobId: jobs[0]!.id, scheduledFor: T, now: T, nextRunAt: T + 3_600_000 });
    assert.ok(run);
    store.recordDelivery({ runId: run.id, target: 'telegram:42', platform: 'telegram', chatId: '42', messageIds: [], error: `401 for key ${secret}`, now: T });
    store.finishRun({ runId: run.id, outcome: 'delivery_failed', error: `send failed: ${secret}`, retryAt: T + 60_000, now: T });

    const result = await scrubStoredHistory({ store, secrets: [secret], scrub, logger: pino({ level: 'silent' }), signal: new AbortController().signal, batchSize: 3 });
    assert.equal(result.kind, 'scrubbed');

    const texts: string[] = [];
    for (const stored of store.listJobs({})) texts.push(stored.name, stored.prompt, stored.script ?? '', stored.lastOutcome ?? '');
    for (const stored of store.runsOf({ jobId: jobs[0]!.id, limit: 5 })) {
      texts.push(stored.error ?? '');
      for (const delivery of stored.deliveries) texts.push(delivery.error ?? '');
    }
    assert.equal(store.listJobs({}).length, 7);
    assert.ok(texts.every((text) => !text.includes(secret)), texts.filter((text) => text.includes(secret)).join('\n'));
    assert.ok(texts.some((text) => text.includes('[REDACTED]')), 'the rows were rewritten, not emptied');
    assert.match(store.job({ jobId: jobs[2]!.id })?.script ?? '', /^curl -H "key: \[REDACTED\]" localhost$/);
  } finally {
    store.close();
    cleanup();
  }
});

test('the cronjob capability stores a job’s name and prompt with the profile’s secrets taken out', async () => {
  const { dir, cleanup } = makeTempDir();
  const clock = new FakeClock(T);
  const store = openStore({ path: path.join(dir, 'state.db'), clock });
  try {
    const cron = cronCapability({ store, timeZone: 'UTC', clock, poke: () => undefined, scrub });
    const origin = { platform: 'telegram', chatId: '42', chatKind: 'dm' as const };
    await cron.manage({ action: 'create', name: `ping ${secret}`, prompt: `use ${secret} to log in`, schedule: 'in 20m', origin, signal: new AbortController().signal });
    const [stored] = store.listJobs({});
    assert.equal(stored?.name, 'ping [REDACTED]');
    assert.equal(stored?.prompt, 'use [REDACTED] to log in');
  } finally {
    store.close();
    cleanup();
  }
});
