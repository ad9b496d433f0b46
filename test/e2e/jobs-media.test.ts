import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FakeClock } from '../helpers/fake-clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { createJob, driveToOutcome, failSends, runsOf, testChat } from '../helpers/jobs.js';

/** Every text the gateway put on the test platform (sends and edits, any chat). */
function everyText(h: Harness): string[] {
  return h.adapter.calls.filter((c) => c.kind !== 'typing').map((c) => c.text);
}

test('a job answer with a MEDIA line reaches every target as an attachment (policy notes included), never as the text MEDIA:', async () => {
  const clock = new FakeClock();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-outside-'));
  const h = await startHarness({ clock, config: { timezone: 'UTC' } });
  try {
    const report = path.join(h.profile.workspaceDir, 'report.pdf');
    writeFileSync(report, '%PDF-1.4 weekly report');
    const outside = path.join(dir, 'private.txt');
    writeFileSync(outside, 'not for chat');
    const job = createJob({ h, clock, name: 'Report', prompt: 'Send the report.', schedule: 'in 1m', targets: [testChat(), testChat({ chatId: 'chat-2', origin: false })] });
    h.fake.enqueue({ text: `Here is the weekly report.\nMEDIA:${report}\nMEDIA:${outside}\n` });
    await driveToOutcome({ h, clock, jobId: job.id, outcome: 'delivered', what: 'delivered' });
    for (const chatId of ['chat-1', 'chat-2']) {
      const shown = h.adapter.shown({ chatId });
      assert.deepEqual(shown.filter((m) => m.attachments.length > 0).map((m) => m.attachments), [[report]], `${chatId} gets the workspace file, once`);
      const text = shown.map((m) => m.text).join('\n');
      assert.match(text, /^Here is the weekly report\./, chatId);
      assert.match(text, /Could not attach .*private\.txt: it is outside the workspace/, `${chatId}: the file outside the workspace is refused as in a reply`);
      const ids = runsOf(h, job.id)[0]?.deliveries.find((d) => d.target === `test:${chatId}`)?.messageIds;
      assert.deepEqual(ids, shown.map((m) => m.id), `${chatId}: the message ids of the text and of the attachment are recorded`);
    }
    for (const text of everyText(h)) assert.doesNotMatch(text, /MEDIA:/, 'no chat ever sees a MEDIA line');
  } finally {
    await h.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a further target whose text failed while its file went through: the retry sends the text, and the file only once", async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { timezone: 'UTC' } });
  try {
    const chart = path.join(h.profile.workspaceDir, 'chart.png');
    writeFileSync(chart, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    // chat-2 refuses text messages until it is back; files go through.
    const sends = failSends({ h, when: (message) => message.chat.id === 'chat-2' && (message.attachments ?? []).length === 0 });
    const job = createJob({ h, clock, name: 'Chart', prompt: 'Draw the chart.', schedule: 'in 1m', targets: [testChat(), testChat({ chatId: 'chat-2', origin: false })] });
    h.fake.enqueue({ text: `The chart:\nMEDIA:${chart}` });
    await driveToOutcome({ h, clock, jobId: job.id, outcome: 'delivery_failed', what: 'delivery_failed' });
    assert.deepEqual(h.adapter.shown({ chatId: 'chat-2' }).map((m) => m.attachments), [[chart]], 'the file went through on the first attempt');
    sends.heal();
    await driveToOutcome({ h, clock, jobId: job.id, outcome: 'delivered', what: 'the retried delivery' });
    const two = h.adapter.shown({ chatId: 'chat-2' });
    assert.equal(two.filter((m) => m.attachments.length > 0).length, 1, 'the file is sent once');
    assert.deepEqual(two.filter((m) => m.attachments.length === 0).map((m) => m.text), ['The chart:']);
    const ids = new Map(runsOf(h, job.id)[0]?.deliveries.map((d) => [d.target, d.messageIds]));
    assert.deepEqual([...(ids.get('test:chat-2') ?? [])].sort(), two.map((m) => m.id).sort(), 'the text and the file are both proven');
    assert.equal(h.adapter.shown().length, 2, 'the first target is not sent to again');
    for (const text of everyText(h)) assert.doesNotMatch(text, /MEDIA:/);
    assert.equal(h.fake.requests.length, 1, 'the answer was sent again, not asked again');
  } finally {
    await h.stop();
  }
});

test('the run’s own chat got the text but its file was refused: the delivery keeps the text’s id and records what is missing', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { timezone: 'UTC' } });
  try {
    const chart = path.join(h.profile.workspaceDir, 'chart.png');
    writeFileSync(chart, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    failSends({ h, when: (message) => (message.attachments ?? []).length > 0, error: '413: file too large' });
    const job = createJob({ h, clock, name: 'Chart', prompt: 'Draw the chart.', schedule: 'in 1m' });
    h.fake.enqueue({ text: `The chart:\nMEDIA:${chart}` });
    await driveToOutcome({ h, clock, jobId: job.id, outcome: 'delivered', what: 'delivered' });
    const delivery = runsOf(h, job.id)[0]?.deliveries[0];
    assert.ok((delivery?.messageIds.length ?? 0) > 0, 'the text’s id is the proof');
    assert.match(delivery?.error ?? '', /Could not send the file .*chart\.png: .*413/, 'the missing file is on record');
  } finally {
    await h.stop();
  }
});
