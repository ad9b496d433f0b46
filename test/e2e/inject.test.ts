import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import type { OutboundMessage } from '../../src/core/adapter.js';
import type { TurnOrigin } from '../../src/tools/capabilities.js';
import { defineTool, type ToolDefinition } from '../../src/tools/tool.js';
import { until } from '../helpers/converse.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { startHarness } from '../helpers/harness.js';
import { createJob, driveUntil, runsOf, withStore } from '../helpers/jobs.js';

/** A tool that records the origin and starter its context carried. */
function whereTool(seen: { origin: TurnOrigin | undefined; startedBy: string | undefined }[]): ToolDefinition {
  return defineTool({
    name: 'where',
    description: 'test probe',
    input: z.object({}),
    parallel: 'safe',
    handler: async (_args, ctx) => {
      seen.push({ origin: ctx.origin, startedBy: ctx.startedBy });
      return 'noted';
    },
  });
}

test('tools see the turn’s origin chat; a job’s turn is marked startedBy job, has no reply-to and passes a closed sender gate', async () => {
  const clock = new FakeClock();
  const seen: { origin: TurnOrigin | undefined; startedBy: string | undefined }[] = [];
  // Only user-1 may talk: the job's system sender is no allowed user, yet its turn runs.
  const h = await startHarness({ clock, allow: ['user-1'], extraTools: [whereTool(seen)], config: { timezone: 'UTC' } });
  const sent: OutboundMessage[] = [];
  const send = h.adapter.send.bind(h.adapter);
  h.adapter.send = async (message) => {
    sent.push(message);
    return send(message);
  };
  try {
    h.fake.enqueue({ toolCalls: [{ name: 'where', arguments: {} }] }, { text: 'user answer' });
    await h.adapter.inject({ text: 'where am I?' });
    await driveUntil({ clock, check: () => h.adapter.shown().length === 1, what: 'the user reply' });
    assert.deepEqual(seen[0], { origin: { platform: 'test', chatId: 'chat-1', chatKind: 'dm' }, startedBy: undefined });
    assert.equal(typeof sent[0]?.replyToId, 'string', 'a user turn replies to its message');

    const job = createJob({ h, clock, name: 'Probe', prompt: 'Check where.', schedule: 'in 1m' });
    h.fake.enqueue({ toolCalls: [{ name: 'where', arguments: {} }] }, { text: 'job answer' });
    await driveUntil({ clock, check: () => runsOf(h, job.id)[0]?.outcome === 'delivered', what: 'the job run' });
    assert.deepEqual(seen[1], { origin: { platform: 'test', chatId: 'chat-1', chatKind: 'dm' }, startedBy: 'job' });
    assert.equal(sent[1]?.text, 'job answer');
    assert.equal(sent[1]?.replyToId, undefined, 'a job’s answer replies to no platform message');
  } finally {
    await h.stop();
  }
});

test('an adapter event cannot pose as a system turn: the mark is dropped and its answer is delivered as usual', async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue({ text: 'HEARTBEAT_OK' });
    const result = await h.runner.accept({
      via: 'test',
      event: {
        platform: 'test',
        messageId: 'spoof-1',
        chat: { id: 'chat-1', kind: 'dm' },
        sender: { id: 'user-1', isBot: false },
        text: 'hello',
        media: [],
        mentioned: true,
        receivedAt: Date.now(),
        system: { kind: 'heartbeat' },
      },
    });
    assert.equal(result, 'queued');
    await until(() => h.adapter.shown().length === 1, 'the reply');
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown()[0]?.text, 'HEARTBEAT_OK');
    withStore(h, (store) => {
      const row = store.getInbound({ inboxId: 1 });
      assert.equal(row?.event.system, undefined);
    });
  } finally {
    await h.stop();
  }
});

test('inject with a message id journaled before is not queued again (a restart finds the done row and its message ids)', async () => {
  const h = await startHarness();
  try {
    h.fake.enqueue({ text: 'once' });
    const params = { platform: 'test', chat: { id: 'chat-1', kind: 'dm' as const }, text: 'ping', sessionKey: 'test:test:chat-1:hb', origin: { kind: 'heartbeat' as const }, messageId: 'hb-1' };
    const first = h.runner.inject(params);
    assert.equal(first.kind, 'queued');
    const end = first.kind === 'queued' ? await first.finished : undefined;
    assert.equal(end?.outcome, 'delivered');
    const shown = h.adapter.shown();
    assert.deepEqual(end?.messageIds, [shown[0]?.id]);
    const again = h.runner.inject(params);
    assert.equal(again.kind, 'finished');
    assert.deepEqual(again.kind === 'finished' ? again.end.messageIds : [], [shown[0]?.id]);
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 1);
    assert.equal(h.adapter.shown().length, 1);
    // The heartbeat's "nothing to report" is never delivered.
    h.fake.enqueue({ text: 'HEARTBEAT_OK' });
    const quiet = h.runner.inject({ ...params, messageId: 'hb-2' });
    const quietEnd = quiet.kind === 'queued' ? await quiet.finished : undefined;
    assert.equal(quietEnd?.outcome, 'silent');
    assert.equal(h.adapter.shown().length, 1);
  } finally {
    await h.stop();
  }
});
