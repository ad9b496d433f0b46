import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { SessionMailbox, type TypingHandle } from '../../../src/gateway/intake/mailbox.js';
import { mayContinue } from '../../../adapters/kit/burst.js';
import { SessionMailboxes } from '../../../src/gateway/intake/mailboxes.js';
import type { InboxRow } from '../../../src/store/types.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { TestAdapter } from '../../helpers/test-adapter.js';

const windowMs = 1000;

function rowOf(params: { id: number; text: string; continues?: boolean; at: number }): InboxRow {
  return {
    id: params.id,
    platform: 'test',
    messageId: `m${params.id}`,
    sessionKey: 'k',
    state: 'received',
    attempts: 0,
    receivedAt: params.at,
    updatedAt: params.at,
    event: {
      platform: 'test',
      messageId: `m${params.id}`,
      chat: { id: 'c', kind: 'dm' },
      sender: { id: 'u', isBot: false },
      text: params.text,
      media: [],
      mentioned: true,
      receivedAt: params.at,
      ...(params.continues === undefined ? {} : { continues: params.continues }),
    },
  };
}

/** A mailbox with a 1 s merge window whose turns and typing are recorded with the clock's time. */
function mailboxWithLog(clock: FakeClock): { mailbox: SessionMailbox; log: string[]; turns: { ids: number[]; typing: boolean }[] } {
  const log: string[] = [];
  const turns: { ids: number[]; typing: boolean }[] = [];
  const start = clock.now();
  const mailbox = new SessionMailbox({
    key: 'k',
    policy: 'queue',
    logger: pino({ level: 'silent' }),
    onIdle: () => undefined,
    clock,
    mergeWindowMs: windowMs,
    signOfLife: (row): TypingHandle => {
      log.push(`typing ${row.id} at ${clock.now() - start}`);
      return { stop: () => log.push(`typing stopped ${row.id}`) };
    },
    runTurn: async ({ row, merged, typing }) => {
      log.push(`turn ${[row, ...merged].map((r) => r.id).join('+')} at ${clock.now() - start}`);
      turns.push({ ids: [row, ...merged].map((r) => r.id), typing: typing !== undefined });
      await clock.sleep(10);
    },
  });
  return { mailbox, log, turns };
}

test('a lone short message: typing and the turn start at once, without waiting out the merge window', async () => {
  const clock = new FakeClock();
  const { mailbox, log, turns } = mailboxWithLog(clock);
  mailbox.enqueue({ row: rowOf({ id: 1, text: 'hi', continues: false, at: clock.now() }) });
  await clock.advance(0);
  assert.deepEqual(log, ['typing 1 at 0', 'turn 1 at 0']);
  assert.deepEqual(turns, [{ ids: [1], typing: true }], 'the turn adopts the typing the mailbox started');
  await clock.advance(10);
  await mailbox.idle();
  assert.equal(log.at(-1), 'typing stopped 1');
});

test('an album (parts marked continues): typing at once, one turn after the window of quiet', async () => {
  const clock = new FakeClock();
  const { mailbox, log, turns } = mailboxWithLog(clock);
  for (const [i, id] of [1, 2, 3].entries()) {
    if (i > 0) await clock.advance(100);
    mailbox.enqueue({ row: rowOf({ id, text: i === 0 ? 'caption' : '', continues: true, at: clock.now() }) });
  }
  assert.deepEqual(log, ['typing 1 at 0'], 'typing starts with the first part, before the window');
  await clock.advance(windowMs - 1);
  assert.deepEqual(turns, [], 'still inside the window after the last part');
  await clock.advance(1);
  assert.deepEqual(turns, [{ ids: [1, 2, 3], typing: true }]);
  await clock.advance(10);
  await mailbox.idle();
});

test('a message following another within the window waits for the burst; the first was not held', async () => {
  const clock = new FakeClock();
  const { mailbox, log, turns } = mailboxWithLog(clock);
  mailbox.enqueue({ row: rowOf({ id: 1, text: 'first', continues: false, at: clock.now() }) });
  await clock.advance(300);
  mailbox.enqueue({ row: rowOf({ id: 2, text: 'second', continues: false, at: clock.now() }) });
  await clock.advance(200);
  mailbox.enqueue({ row: rowOf({ id: 3, text: 'third', continues: false, at: clock.now() }) });
  await clock.advance(windowMs + 10);
  await mailbox.idle();
  assert.deepEqual(turns.map((t) => t.ids), [[1], [2, 3]]);
  assert.ok(log.includes('turn 1 at 0'), log.join('; '));
  assert.ok(log.includes('typing 2 at 300'), `typing for the follower at once: ${log.join('; ')}`);
});

test('a message long after the previous one is lone again', async () => {
  const clock = new FakeClock();
  const { mailbox, turns, log } = mailboxWithLog(clock);
  mailbox.enqueue({ row: rowOf({ id: 1, text: 'a', continues: false, at: clock.now() }) });
  await clock.advance(5000);
  await mailbox.idle();
  mailbox.enqueue({ row: rowOf({ id: 2, text: 'b', continues: false, at: clock.now() }) });
  await clock.advance(0);
  assert.deepEqual(turns.map((t) => t.ids), [[1], [2]]);
  assert.ok(log.includes('turn 2 at 5000'), log.join('; '));
});

test('mayContinue: albums and texts near the limit may continue, a short text does not', () => {
  assert.equal(mayContinue({ text: 'hello', limit: 4096 }), false);
  assert.equal(mayContinue({ text: '', limit: 4096, grouped: true }), true);
  assert.equal(mayContinue({ text: 'x'.repeat(4000), limit: 4096 }), true);
  assert.equal(mayContinue({ text: 'x'.repeat(2000), limit: 4096 }), false);
});

test('a follower is known as one also when the session\'s mailbox went away in between (it was idle)', async () => {
  const clock = new FakeClock();
  const turns: number[][] = [];
  const mailboxes = new SessionMailboxes({
    clock,
    logger: pino({ level: 'silent' }),
    busyPolicy: () => 'queue',
    runTurn: async ({ row, merged }) => {
      turns.push([row, ...merged].map((r) => r.id));
    },
  });
  const entry = { adapter: new TestAdapter({ clock }), allow: 'all' as const, mergeWindowMs: windowMs };
  const first = mailboxes.for({ key: 'k', entry });
  first.enqueue({ row: rowOf({ id: 1, text: 'a', continues: false, at: clock.now() }) });
  await first.idle();
  assert.equal(mailboxes.get({ key: 'k' }), undefined, 'the idle mailbox is gone');
  await clock.advance(200);
  mailboxes.for({ key: 'k', entry }).enqueue({ row: rowOf({ id: 2, text: 'b', continues: false, at: clock.now() }) });
  await clock.advance(windowMs - 1);
  assert.deepEqual(turns, [[1]], 'the follower waits for the window');
  await clock.advance(1);
  assert.deepEqual(turns, [[1], [2]]);
});
