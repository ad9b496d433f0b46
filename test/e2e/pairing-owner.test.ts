import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { cli } from '../helpers/cli.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';

const owner = { id: 1001, first_name: 'Owner', username: 'owner' };
const ownerDm = { id: 1001, type: 'private' as const };
const CODE = /\b([A-HJ-NP-Z2-9]{8})\b/;
const MINUTE = 60_000;

/** A gateway with the real grammy adapter against the Telegram fake; 1001 is the allowlisted owner. */
async function startTelegram(): Promise<{ h: Harness; fake: FakeTelegram; close: () => Promise<void> }> {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  const h = await startHarness({
    adapters: ({ profile, clock, logger }) => [
      { adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ['1001'] } }), allow: ['1001'], unauthorized: 'pair', mergeWindowMs: 0 },
    ],
  });
  return {
    h,
    fake,
    close: async () => {
      await h.stop();
      await fake.close();
    },
  };
}

test('telegram: four strangers all get codes (no cap of three), the owner is told of each in their chat with the approve command', { timeout: 30_000 }, async () => {
  const { h, fake, close } = await startTelegram();
  try {
    h.fake.enqueue({ text: 'Hello, owner.' });
    fake.pushMessage({ chat: ownerDm, from: owner, text: 'hi' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(1001).some((m) => m.shown === 'Hello, owner.') });
    await h.runner.waitIdle();

    const strangers = [3001, 3002, 3003, 3004].map((id) => ({ id, first_name: `Stranger${id}` }));
    for (const s of strangers) fake.pushMessage({ chat: { id: s.id, type: 'private' }, from: s, text: 'let me in' });
    await fake.waitFor({ predicate: (f) => strangers.every((s) => f.chatMessages(s.id).length === 1), timeoutMs: 10_000 });
    await fake.waitFor({ predicate: (f) => f.chatMessages(1001).length === 1 + strangers.length, timeoutMs: 10_000 });
    await h.runner.waitIdle();

    const notices = fake.chatMessages(1001).slice(1).map((m) => m.shown);
    const codes = new Map<number, string>();
    for (const s of strangers) {
      const code = CODE.exec(fake.chatMessages(s.id)[0]?.shown ?? '')?.[1];
      assert.ok(code, `stranger ${s.id} got no code`);
      codes.set(s.id, code);
      const notice = notices.find((n) => n.includes(`id ${s.id}`));
      assert.ok(notice, `the owner was not told about ${s.id}: ${notices.join(' | ')}`);
      assert.match(notice, new RegExp(`"Stranger${s.id}" \\(id ${s.id}\\)`));
      assert.ok(notice.includes(`hermes -p test pairing approve telegram ${code}`), notice);
    }
    assert.equal(h.fake.requests.length, 1, 'no stranger reached the model');

    // Asking again right away repeats nothing (and makes no second code); the owner's command works.
    fake.pushMessage({ chat: { id: 3004, type: 'private' }, from: strangers[3] ?? owner, text: 'hello??' });
    await new Promise((r) => setTimeout(r, 300));
    await h.runner.waitIdle();
    assert.equal(fake.chatMessages(3004).length, 1);
    assert.equal(fake.chatMessages(1001).length, 1 + strangers.length, 'one notice per code');
    const res = await cli({ argv: ['-p', 'test', 'pairing', 'approve', 'telegram', codes.get(3004) ?? ''], env: { HERMES_HOME: h.profile.hermesHome, HOME: h.profile.hermesHome } });
    assert.equal(res.code, 0, res.stderr);
    h.fake.enqueue({ text: 'Welcome.' });
    fake.pushMessage({ chat: { id: 3004, type: 'private' }, from: strangers[3] ?? owner, text: 'now?' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(3004).some((m) => m.shown === 'Welcome.') });
  } finally {
    await close();
  }
});

/** Moves the fake clock on in small steps (real time passing too) until `check` holds. */
async function driveUntil(params: { clock: FakeClock; check: () => boolean; what: string; stepMs?: number }): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!params.check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${params.what}`);
    await params.clock.advance(params.stepMs ?? 500);
    await new Promise((r) => setTimeout(r, 2));
  }
}

test('a stranger flood: five notices an hour, then one summary; a stranger asking again gets the same code, at most every 10 minutes', { timeout: 30_000 }, async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, allow: ['owner'], unauthorized: 'pair' });
  try {
    // Before the owner ever wrote from a DM there is no chat to tell: the stranger still gets a code.
    await h.adapter.inject({ text: 'hi', senderId: 'early', chatId: 'dm-early' });
    await h.adapter.inject({ text: '/status', senderId: 'owner', chatId: 'dm-owner' });
    await driveUntil({ clock, check: () => h.adapter.shown({ chatId: 'dm-owner' }).length === 1 && h.adapter.shown({ chatId: 'dm-early' }).length === 1, what: 'the status reply and the early code' });

    const ids = ['+15551234567', 's2', 's3', 's4', 's5', 's6', 's7'];
    for (const id of ids) await h.adapter.inject({ text: 'hello', senderId: id, chatId: `dm-${id}` });
    const notices = (): string[] => h.adapter.shown({ chatId: 'dm-owner' }).slice(1).map((m) => m.text);
    await driveUntil({ clock, check: () => notices().length === 5 && ids.every((id) => h.adapter.shown({ chatId: `dm-${id}` }).length === 1), what: 'five notices and seven codes' });
    assert.match(notices()[0] ?? '', /^Someone new asked to talk to the bot on test: "Tester" \(id \+1555\*\*\*4567\)\./, 'the phone number is masked as in the logs');
    assert.doesNotMatch(notices().join('\n'), /15551234567/);
    assert.match(notices()[4] ?? '', /Further requests until .* UTC come in one summary/);
    assert.doesNotMatch(notices()[3] ?? '', /summary/);

    // s2 asks again: nothing at once; after 10 minutes the same code once more.
    const first = CODE.exec(h.adapter.shown({ chatId: 'dm-s2' })[0]?.text ?? '')?.[1];
    assert.ok(first);
    await h.adapter.inject({ text: 'code?', senderId: 's2', chatId: 'dm-s2' });
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown({ chatId: 'dm-s2' }).length, 1);
    await clock.advance(10 * MINUTE);
    await h.adapter.inject({ text: 'code??', senderId: 's2', chatId: 'dm-s2' });
    await driveUntil({ clock, check: () => h.adapter.shown({ chatId: 'dm-s2' }).length === 2, what: 'the repeated code' });
    assert.equal(CODE.exec(h.adapter.shown({ chatId: 'dm-s2' })[1]?.text ?? '')?.[1], first, 'the same code, not a new one');
    assert.equal(notices().length, 5, 'a repeated code is no new notice');

    // The window ends: one summary of the two not told one by one.
    await driveUntil({ clock, check: () => notices().length === 6, what: 'the summary', stepMs: 5 * MINUTE });
    assert.match(notices()[5] ?? '', /^2 more people asked for a pairing code since .* UTC \(test 2\)\.\nSee who and their codes with: hermes -p test pairing list$/);
    await clock.advance(3 * 3_600_000);
    assert.equal(notices().length, 6, 'nothing more without new requests');
    assert.equal(h.fake.requests.length, 0);
  } finally {
    await h.stop();
  }
});

test('a flood of strangers on one platform: 30 code replies an hour (each SMS reply costs), then none; the owner is told once with what to do, later strangers still get codes made, and replies resume after the hour', { timeout: 30_000 }, async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, allow: ['owner'], unauthorized: 'pair' });
  try {
    await h.adapter.inject({ text: '/status', senderId: 'owner', chatId: 'dm-owner' });
    await driveUntil({ clock, check: () => h.adapter.shown({ chatId: 'dm-owner' }).length === 1, what: 'the status reply' });
    const ids = Array.from({ length: 34 }, (_, i) => `flood${i}`);
    for (const id of ids) await h.adapter.inject({ text: 'hello', senderId: id, chatId: `dm-${id}` });
    const replied = (): string[] => ids.filter((id) => h.adapter.shown({ chatId: `dm-${id}` }).length > 0);
    const ownerTexts = (): string[] => h.adapter.shown({ chatId: 'dm-owner' }).slice(1).map((m) => m.text);
    await driveUntil({ clock, check: () => replied().length === 30 && ownerTexts().some((t) => t.includes('get no reply')), what: 'thirty codes and the pause note' });
    await h.runner.waitIdle();
    assert.deepEqual(replied(), ids.slice(0, 30), 'the first thirty got their code, the rest nothing');
    const pauses = ownerTexts().filter((t) => t.includes('get no reply'));
    assert.equal(pauses.length, 1, 'one note, not one per stranger');
    assert.match(pauses[0] ?? '', /^More than 30 strangers asked the bot on test for a pairing code this hour, so until .* UTC new ones get no reply/);
    assert.match(pauses[0] ?? '', /run: hermes -p test pairing list$/);
    const store = h.readStore();
    try {
      const pending = new Set(store.pairingRequests({ platform: 'test', now: clock.now() }).map((r) => r.senderId));
      assert.ok(ids.every((id) => pending.has(id)), 'every stranger has a code the owner can approve, replied to or not');
    } finally {
      store.close();
    }

    // An hour on, the next stranger gets a code again.
    await clock.advance(3_600_000);
    await h.adapter.inject({ text: 'hello', senderId: 'later', chatId: 'dm-later' });
    await driveUntil({ clock, check: () => h.adapter.shown({ chatId: 'dm-later' }).length === 1, what: 'a code after the hour' });
    assert.match(h.adapter.shown({ chatId: 'dm-later' })[0]?.text ?? '', CODE);
    assert.equal(h.fake.requests.length, 0);
  } finally {
    await h.stop();
  }
});
