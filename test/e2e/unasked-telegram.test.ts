import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { UnaskedLoops } from '../../src/gateway/inject/unasked-loops.js';
import type { Store } from '../../src/store/types.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { driveUntil } from '../helpers/jobs.js';
import { ownerChat, telegramGateway, tgDm, tgOwner, type TelegramGateway } from '../helpers/telegram-gateway.js';

const minute = 60_000;

/** The user texts of the model's requests, in order (the last user message of each). */
function userTexts(gw: TelegramGateway): string[] {
  return gw.h.fake.requests.map((r) => String((r.body.messages ?? []).filter((m) => m['role'] === 'user').at(-1)?.['content'] ?? ''));
}

/** Lines a check command appended to `file` (how often it ran). */
function lines(file: string): number {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').length : 0;
}

/** Lets real I/O (the fakes, child processes) run while fake time stands still. */
const settle = (ms = 100): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Moves fake time on by `ms` in steps of `stepMs`, letting real I/O run between steps. */
async function pass(params: { clock: FakeClock; ms: number; stepMs?: number }): Promise<void> {
  const step = params.stepMs ?? minute;
  for (let done = 0; done < params.ms; done += step) {
    await params.clock.advance(Math.min(step, params.ms - done));
    await settle(10);
  }
}

/**
 * The owner sends /sethome in the Telegram chat; then the heartbeat and checks start from the gateway's config the
 * way `hermes gateway run` starts them (UnaskedLoops over runner.inject). Resolves with the loops and the store they
 * read home channels from.
 */
async function startUnasked(params: { gw: TelegramGateway; clock: FakeClock }): Promise<{ loops: UnaskedLoops; store: Store; sentBefore: number }> {
  const { gw, clock } = params;
  gw.fake.pushMessage({ chat: tgDm, from: tgOwner, text: '/sethome' });
  await driveUntil({ clock, check: () => ownerChat(gw.fake).some((m) => m.shown.includes('is now the telegram home channel')), what: 'the /sethome reply', stepMs: 100 });
  const store = gw.h.readStore();
  const loops = new UnaskedLoops({ profileDir: gw.h.profile.dir, profileName: () => gw.h.profile.name, store, inject: (p) => gw.h.runner.inject(p), clock, logger: gw.h.logger });
  assert.equal(await loops.apply({ config: gw.h.config }), 'started');
  return { loops, store, sentBefore: gw.fake.callsTo('sendMessage').length };
}

test('heartbeat through Telegram: HEARTBEAT_OK sends nothing; an answer with text reaches the home channel once', { timeout: 60_000 }, async () => {
  const clock = new FakeClock();
  const gw = await telegramGateway({ clock, config: { heartbeat: { enabled: true, interval: '30m', target: 'telegram' } } });
  writeFileSync(path.join(gw.h.profile.dir, 'HEARTBEAT.md'), '- Is the nightly build green?\n');
  const { loops, store, sentBefore } = await startUnasked({ gw, clock });
  try {
    const chatBefore = ownerChat(gw.fake).length;
    gw.h.fake.enqueue({ text: 'HEARTBEAT_OK' });
    await pass({ clock, ms: 30 * minute });
    await driveUntil({ clock, check: () => gw.h.fake.requests.length === 1, what: 'the first heartbeat model call' });
    await gw.h.runner.waitIdle();
    await settle();
    assert.match(userTexts(gw)[0] ?? '', /\[Heartbeat\][\s\S]*<checklist>\n- Is the nightly build green\?\n<\/checklist>/);
    assert.equal(gw.fake.callsTo('sendMessage').length, sentBefore, 'HEARTBEAT_OK was sent to Telegram');
    assert.equal(ownerChat(gw.fake).length, chatBefore);

    // A model's decorated HEARTBEAT_OK ("**HEARTBEAT_OK**.") is not delivered either.
    gw.h.fake.enqueue({ text: '**HEARTBEAT_OK**.' });
    await pass({ clock, ms: 30 * minute });
    await driveUntil({ clock, check: () => gw.h.fake.requests.length === 2, what: 'the second heartbeat model call' });
    await gw.h.runner.waitIdle();
    await settle();
    assert.equal(gw.fake.callsTo('sendMessage').length, sentBefore, 'a decorated HEARTBEAT_OK was sent to Telegram');

    gw.h.fake.enqueue({ text: 'The nightly build is red.' });
    await pass({ clock, ms: 30 * minute });
    await driveUntil({ clock, check: () => ownerChat(gw.fake).some((m) => m.shown === 'The nightly build is red.'), what: 'the heartbeat message' });
    gw.h.fake.setResponder(() => ({ text: 'HEARTBEAT_OK' }));
    await pass({ clock, ms: 30 * minute });
    await driveUntil({ clock, check: () => gw.h.fake.requests.length === 4, what: 'the fourth heartbeat' });
    await gw.h.runner.waitIdle();
    await settle();
    assert.deepEqual(ownerChat(gw.fake).slice(chatBefore).map((m) => m.shown), ['The nightly build is red.'], 'delivered once, to the home channel');
  } finally {
    await loops.stop();
    store.close();
    await gw.close();
  }
});

test('heartbeat quiet_hours: no run (no model call) while quiet on the fake clock; the first time after them runs', { timeout: 60_000 }, async () => {
  // 22:50 UTC; every 30 min: 23:20 … 06:50 are quiet (23:00-07:00), 07:20 is the first run.
  const clock = new FakeClock(Date.UTC(2026, 11, 1, 22, 50));
  const gw = await telegramGateway({ clock, config: { heartbeat: { enabled: true, interval: '30m', target: 'telegram', quiet_hours: '23:00-07:00' } } });
  writeFileSync(path.join(gw.h.profile.dir, 'HEARTBEAT.md'), '- Anything new?\n');
  const { loops, store } = await startUnasked({ gw, clock });
  try {
    gw.h.fake.setResponder(() => ({ text: 'Good morning: nothing new.' }));
    await pass({ clock, ms: 8 * 60 * minute, stepMs: 10 * minute });
    await settle();
    assert.equal(gw.h.fake.requests.length, 0, 'a heartbeat ran in quiet hours');
    await pass({ clock, ms: 30 * minute });
    await driveUntil({ clock, check: () => ownerChat(gw.fake).some((m) => m.shown === 'Good morning: nothing new.'), what: 'the 07:20 heartbeat' });
    assert.equal(gw.h.fake.requests.length, 1);
  } finally {
    await loops.stop();
    store.close();
    await gw.close();
  }
});

test('checks through Telegram: "disk 95%" makes exactly one turn in the home channel; a check printing nothing makes no model call; a once check retires', { timeout: 60_000 }, async () => {
  const clock = new FakeClock();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-checks-'));
  const diskRuns = path.join(dir, 'disk-runs');
  const quietRuns = path.join(dir, 'quiet-runs');
  const gw = await telegramGateway({
    clock,
    config: {
      heartbeat: { target: 'telegram' },
      checks: [
        { name: 'disk', command: `echo run >> ${diskRuns}; echo "disk 95%"`, interval: '10m', once: true, prompt: 'The disk check found this; warn the user.' },
        { name: 'quiet', command: `echo run >> ${quietRuns}`, interval: '10m' },
      ],
    },
  });
  const { loops, store, sentBefore } = await startUnasked({ gw, clock });
  try {
    const chatBefore = ownerChat(gw.fake).length;
    gw.h.fake.setResponder(() => ({ text: 'Your disk is 95% full.' }));
    await pass({ clock, ms: 10 * minute });
    await driveUntil({ clock, check: () => ownerChat(gw.fake).some((m) => m.shown === 'Your disk is 95% full.'), what: 'the check’s turn' });
    await gw.h.runner.waitIdle();
    assert.equal(gw.h.fake.requests.length, 1, 'one model call');
    const text = userTexts(gw)[0] ?? '';
    assert.match(text, /^The disk check found this; warn the user\.\n\n<check-output name="disk">\ndisk 95%\n<\/check-output>$/);
    // Three more intervals: the quiet check runs each time without a model call; the fired once-check is retired.
    await pass({ clock, ms: 30 * minute });
    await driveUntil({ clock, check: () => lines(quietRuns) >= 4, what: 'four runs of the quiet check' });
    await gw.h.runner.waitIdle();
    await settle();
    assert.equal(lines(diskRuns), 1, 'the once check ran again after it fired');
    assert.equal(gw.h.fake.requests.length, 1, 'a check printing nothing called the model');
    assert.deepEqual(ownerChat(gw.fake).slice(chatBefore).map((m) => m.shown), ['Your disk is 95% full.']);
    assert.equal(gw.fake.callsTo('sendMessage').length, sentBefore + 1, 'one Telegram message');
  } finally {
    await loops.stop();
    store.close();
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
