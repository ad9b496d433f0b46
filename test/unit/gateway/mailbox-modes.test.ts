import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import { SessionMailbox, type SteeringSource } from '../../../src/gateway/intake/mailbox.js';
import { type BusyPolicy } from '../../../src/core/platform.js';
import type { InboxRow } from '../../../src/store/types.js';
import { systemClock } from '../../../src/core/clock.js';

function rowOf(params: { id: number; system?: boolean }): InboxRow {
  return {
    id: params.id,
    platform: 'test',
    messageId: `m${params.id}`,
    sessionKey: 'k',
    state: 'received',
    attempts: 0,
    receivedAt: 0,
    updatedAt: 0,
    event: {
      platform: 'test',
      messageId: `m${params.id}`,
      chat: { id: 'c', kind: 'dm' },
      sender: { id: 'u', isBot: false },
      text: `text ${params.id}`,
      media: [],
      mentioned: true,
      receivedAt: 0,
      ...(params.system === true ? { system: { kind: 'heartbeat' as const } } : {}),
    },
  };
}

/** A running turn the test releases; it records what it took through its steering source. */
interface HeldTurn {
  readonly id: number;
  readonly aborted: () => boolean;
  readonly steering: SteeringSource | undefined;
  readonly release: () => void;
}

/** A mailbox whose turns wait until released (`turns` in start order). */
function heldMailbox(policy: BusyPolicy): { mailbox: SessionMailbox; turns: HeldTurn[]; started: () => Promise<HeldTurn> } {
  const turns: HeldTurn[] = [];
  let notify: (() => void) | undefined;
  const mailbox = new SessionMailbox({
    key: 'k',
    policy,
    logger: pino({ level: 'silent' }),
    onIdle: () => undefined,
    clock: systemClock,
    mergeWindowMs: 0,
    runTurn: async ({ row, signal, steering }) => {
      let release: () => void = () => undefined;
      const done = new Promise<void>((resolve) => {
        release = resolve;
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
      turns.push({ id: row.id, aborted: () => signal.aborted, steering, release: () => release() });
      notify?.();
      await done;
    },
  });
  const started = async (): Promise<HeldTurn> => {
    const count = turns.length;
    while (turns.length === count) await new Promise<void>((resolve) => (notify = resolve));
    const turn = turns.at(-1);
    assert.ok(turn);
    return turn;
  };
  return { mailbox, turns, started };
}

test('mode queue under policy interrupt: the running turn goes on; a later plain message interrupts but never supersedes the queued row', async () => {
  const { mailbox, turns, started } = heldMailbox('interrupt');
  const first = started();
  mailbox.enqueue({ row: rowOf({ id: 1 }) });
  const one = await first;
  mailbox.enqueue({ row: rowOf({ id: 2 }), mode: 'queue' });
  assert.equal(one.aborted(), false, '/queue does not interrupt');
  mailbox.enqueue({ row: rowOf({ id: 3 }) });
  assert.equal(one.aborted(), true, 'a plain message still interrupts');
  const next = await started();
  assert.equal(next.id, 2, 'the queued row runs (it was not superseded)');
  next.release();
  const last = await started();
  assert.equal(last.id, 3);
  last.release();
  await mailbox.idle();
  assert.deepEqual(turns.map((t) => [t.id, t.aborted()]), [[1, true], [2, false], [3, false]]);
});

test('mode steer: the running turn takes the row at its next look, once; not taken by the end: the next turn', async () => {
  const { mailbox, turns, started } = heldMailbox('interrupt');
  const first = started();
  mailbox.enqueue({ row: rowOf({ id: 1 }) });
  const one = await first;
  mailbox.enqueue({ row: rowOf({ id: 2 }), mode: 'steer' });
  assert.equal(mailbox.queued, 0);
  assert.deepEqual(one.steering?.take().map((r) => r.id), [2]);
  assert.deepEqual(one.steering?.take().map((r) => r.id), [], 'each row is given once');
  mailbox.enqueue({ row: rowOf({ id: 3 }), mode: 'steer' });
  const next = started();
  one.release();
  const two = await next;
  assert.equal(two.id, 3, 'steered text the turn never read is answered next');
  two.release();
  await mailbox.idle();
  assert.deepEqual(turns.map((t) => t.id), [1, 3]);
});

test('policy steer: plain messages steer; into a system-started turn they queue; /stop\'s clearQueue drops steered rows not taken', async () => {
  const { mailbox, started } = heldMailbox('steer');
  const first = started();
  mailbox.enqueue({ row: rowOf({ id: 1, system: true }) });
  const heartbeat = await first;
  mailbox.enqueue({ row: rowOf({ id: 2 }) });
  assert.equal(mailbox.queued, 1, 'a heartbeat may end silently: the message waits for a turn of its own');
  assert.deepEqual(heartbeat.steering?.take(), []);
  const next = started();
  heartbeat.release();
  const two = await next;
  mailbox.enqueue({ row: rowOf({ id: 3 }) });
  assert.equal(mailbox.queued, 0, 'steered into the running turn');
  assert.deepEqual(mailbox.clearQueue().map((r) => r.id), [3]);
  assert.deepEqual(two.steering?.take(), []);
  two.release();
  await mailbox.idle();
});

test('steered text the turn ended before reading waits behind a /queue message sent before it (arrival order)', async () => {
  const { mailbox, turns, started } = heldMailbox('interrupt');
  const first = started();
  mailbox.enqueue({ row: rowOf({ id: 1 }) });
  const one = await first;
  mailbox.enqueue({ row: rowOf({ id: 2 }), mode: 'queue' });
  mailbox.enqueue({ row: rowOf({ id: 3 }), mode: 'steer' });
  const next = started();
  one.release();
  const two = await next;
  assert.equal(two.id, 2, 'the /queue row, sent first, is answered first');
  const after = started();
  two.release();
  const three = await after;
  assert.equal(three.id, 3);
  three.release();
  await mailbox.idle();
  assert.deepEqual(turns.map((t) => t.id), [1, 2, 3]);
});
