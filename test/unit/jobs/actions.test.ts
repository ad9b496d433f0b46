import assert from 'node:assert/strict';
import path from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { jobsShortText } from '../../../src/jobs/actions-format.js';
import { createJobAction, resumeJobAction, runJobAction, updateJobAction, type JobActionDeps } from '../../../src/jobs/actions.js';
import { resolveTargets } from '../../../src/jobs/resolve-targets.js';
import type { ChatRef } from '../../../src/core/adapter.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import type { Store } from '../../../src/store/types.js';
import type { TurnOrigin } from '../../../src/tools/capabilities.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeEvent, makeTempDir } from '../store/fixtures.js';

const T = Date.parse('2026-12-01T10:00:00Z');
const origin: TurnOrigin = { platform: 'telegram', chatId: '42', chatKind: 'dm' };

describe('job actions over a real store', () => {
  let temp: ReturnType<typeof makeTempDir>;
  let store: Store;
  let clock: FakeClock;
  let deps: JobActionDeps;
  let pokes: number;
  let n = 0;
  /** A message from that chat in the inbox: a chat the profile talks with. */
  const heard = (platform: string, chat: ChatRef): void => {
    n += 1;
    store.recordInbound({ event: makeEvent({ platform, messageId: `m${n}`, chat, receivedAt: clock.now() + n }), sessionKey: `p:${platform}:${chat.id}` });
  };

  beforeEach(() => {
    temp = makeTempDir();
    clock = new FakeClock(T);
    store = openStore({ path: path.join(temp.dir, 'state.db'), clock });
    pokes = 0;
    deps = { store, timeZone: 'Europe/Berlin', clock, poke: () => (pokes += 1) };
  });
  afterEach(() => {
    store.close();
    temp.cleanup();
  });

  test('a known thread keeps its chat kind and thread; origin and the same chat written out are one target', () => {
    heard('slack', { id: 'C1', kind: 'channel', threadId: '1700.1' });
    const result = resolveTargets({ store, deliver: 'slack:C1:1700.1, origin, telegram:42', origin });
    assert.ok(result.ok);
    assert.deepEqual(result.targets, [
      { kind: 'chat', platform: 'slack', chat: { id: 'C1', kind: 'channel', threadId: '1700.1' }, origin: false },
      { kind: 'chat', platform: 'telegram', chat: { id: '42', kind: 'dm' }, origin: true },
    ]);
    const wrongThread = resolveTargets({ store, deliver: 'slack:C1:9', origin });
    assert.ok(!wrongThread.ok);
    assert.match(wrongThread.error, /"slack:C1:9" is not a chat this profile talks with \(valid targets: origin, slack:C1:1700\.1\)/);
  });

  test('a refusal lists at most 10 known chats, newest first, then how many more, and the home channels set', () => {
    for (let i = 1; i <= 13; i += 1) heard('telegram', { id: `c${i}`, kind: 'dm' });
    store.setHomeChannel({ platform: 'slack', chat: { id: 'C9', kind: 'channel' } });
    const result = resolveTargets({ store, deliver: 'discord:1' });
    assert.ok(!result.ok);
    assert.match(result.error, /\(valid targets: home:slack, telegram:c13, telegram:c12, .*telegram:c4, and 3 more\)$/);
    assert.ok(resolveTargets({ store, deliver: 'home:slack' }).ok);
    assert.ok(resolveTargets({ store, deliver: 'slack:C9' }).ok, 'the home channel itself is a known chat');
    const noHome = resolveTargets({ store, deliver: 'home', origin });
    assert.ok(!noHome.ok);
    assert.match(noHome.error, /telegram has no home channel yet: send \/sethome/);
  });

  test('create reads the schedule in the configured zone, names the job from its prompt, and pokes the scheduler', () => {
    const created = createJobAction({ deps, prompt: 'Call the bank about the card that was blocked yesterday', schedule: '2026-12-02 09:00', origin });
    assert.ok(created.ok);
    assert.equal(created.job?.nextRunAt, Date.parse('2026-12-02T08:00:00Z'));
    assert.equal(created.job?.name, 'Call the bank about the card that was b…');
    assert.match(created.text, /once at 2026-12-02 09:00 \(Europe\/Berlin\); next run 2026-12-02 09:00 \(Europe\/Berlin\)/);
    assert.equal(pokes, 1);
    const refused = createJobAction({ deps, prompt: 'x', schedule: 'tomorrow-ish', origin });
    assert.ok(!refused.ok);
    assert.match(refused.error, /is not a schedule; accepted:/);
    assert.equal(store.listJobs({}).length, 1);
    assert.equal(pokes, 1, 'a refusal pokes nothing');
  });

  test('run makes the job due now without a run; resume of a passed one-shot is refused; a new time revives a done one-shot', async () => {
    const created = createJobAction({ deps, prompt: 'ping', schedule: 'in 20m', origin });
    assert.ok(created.ok && created.job);
    const id = created.job.id;
    assert.ok(runJobAction({ deps, jobId: id }).ok);
    assert.equal(store.job({ jobId: id })?.nextRunAt, T);
    assert.equal(store.runsOf({ jobId: id, limit: 5 }).length, 0);
    store.setJobState({ jobId: id, state: 'done', nextRunAt: null });
    await clock.advance(3_600_000);
    const resumed = resumeJobAction({ deps, jobId: id });
    assert.ok(!resumed.ok);
    assert.match(resumed.error, /one-shot whose time has passed/);
    const updated = updateJobAction({ deps, jobId: id, schedule: 'in 1h' });
    assert.ok(updated.ok);
    assert.equal(updated.job?.state, 'active');
    assert.equal(updated.job?.nextRunAt, T + 2 * 3_600_000);
  });

  test('/cron text fits the limit and says how many jobs it left out', () => {
    for (let i = 0; i < 6; i += 1) assert.ok(createJobAction({ deps, name: `job number ${i}`, prompt: 'p', schedule: 'every 2h', origin }).ok);
    const text = jobsShortText({ store, maxChars: 300 });
    assert.ok(text.length <= 300, String(text.length));
    const shown = text.split('\n');
    assert.match(shown.at(-1) ?? '', /^… \d more \(hermes cron list\)$/);
    assert.equal(shown.length - 1 + Number(/… (\d)/.exec(shown.at(-1) ?? '')?.[1]), 6);
    assert.equal(jobsShortText({ store, maxChars: 10_000 }).split('\n').length, 6);
  });
});
