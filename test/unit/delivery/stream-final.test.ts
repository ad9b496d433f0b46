import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { settle } from './helpers.js';
import { CURSOR, harness, shownTexts, stream } from './stream-harness.js';

let dir = '';
before(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
  fs.writeFileSync(path.join(dir, 'chart.png'), 'png bytes');
  fs.writeFileSync(path.join(dir, 'song.mp3'), 'mp3 bytes');
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('StreamDelivery at finish', () => {
  test('MEDIA lines become attachments and are never shown; a missing file is noted in the reply', async () => {
    const h = harness();
    const chart = path.join(dir, 'chart.png');
    const gone = path.join(dir, 'gone.pdf');
    const text = `Here is the chart:\nMEDIA:${chart}\nAnd the report:\nMEDIA: ${gone}\nDone.`;
    await stream({ h, text, size: 3, everyMs: 300 });
    const result = await settle({ clock: h.clock, promise: h.delivery.finish() });

    for (const call of h.adapter.calls) assert.ok(!call.text.includes('MEDIA:'), `MEDIA line shown: ${call.text}`);
    const expected = `Here is the chart:\nAnd the report:\nDone.\n\n⚠️ Could not attach ${gone}: file not found`;
    assert.equal(result.finalText, expected);
    const [reply, file] = h.adapter.sends;
    assert.equal(h.adapter.messages.get(reply?.messageId ?? '')?.text, expected);
    assert.deepEqual(file?.attachments, [{ path: chart, kind: 'image' }]);
    assert.equal(file?.text, '');
    assert.equal(h.adapter.sends.length, 2);
    assert.equal(result.attachmentsSent, 1);
    assert.deepEqual(result.errors, []);
    assert.ok(h.journal.some((r) => r.text === `MEDIA:${chart}` && r.platformMessageId === file?.messageId && r.state === 'final'));
  });

  test('a platform without edits gets its files with the reply itself (one email, one MMS); a replay sends nothing twice', async () => {
    const chart = path.join(dir, 'chart.png');
    const song = path.join(dir, 'song.mp3');
    const h = harness({ capabilities: { edit: false } });
    await stream({ h, text: `Both files:\nMEDIA:${chart}\nMEDIA:${song}\nEnjoy.`, size: 4, everyMs: 300 });
    const result = await settle({ clock: h.clock, promise: h.delivery.finish() });
    assert.equal(h.adapter.sends.length, 1, 'text and files in one message');
    assert.equal(h.adapter.sends[0]?.text, 'Both files:\nEnjoy.');
    assert.deepEqual(h.adapter.sends[0]?.attachments, [{ path: chart, kind: 'image' }, { path: song, kind: 'audio' }]);
    assert.equal(result.attachmentsSent, 2);
    const id = h.adapter.sends[0]?.messageId ?? '';
    assert.deepEqual(h.journal.map((r) => [r.platformMessageId, r.text]), [[id, 'Both files:\nEnjoy.'], [id, `MEDIA:${chart}`], [id, `MEDIA:${song}`]]);

    // The turn is replayed after a crash: the journal rows are adopted and nothing goes out again.
    const existing = h.journal.map((r) => ({ seq: r.seq, platformMessageId: r.platformMessageId, text: r.text }));
    const replay = harness({ capabilities: { edit: false }, existing });
    replay.delivery.push(`Both files:\nMEDIA:${chart}\nMEDIA:${song}\nEnjoy.`);
    const again = await settle({ clock: replay.clock, promise: replay.delivery.finish() });
    assert.equal(replay.adapter.sends.length, 0);
    assert.equal(again.attachmentsSent, 2);
  });

  test('a platform without media support gets a note instead of the file', async () => {
    const h = harness({ capabilities: { media: false } });
    const song = path.join(dir, 'song.mp3');
    h.delivery.push(`Listen:\nMEDIA:${song}\n`);
    const result = await settle({ clock: h.clock, promise: h.delivery.finish() });
    assert.equal(result.finalText, `Listen:\n\n⚠️ Could not attach ${song}: this platform cannot receive files`);
    assert.equal(h.adapter.sends.length, 1);
    assert.equal(result.attachmentsSent, 0);
  });

  test('a note is appended to the final text; abandon appends "(interrupted)"', async () => {
    const h = harness();
    await stream({ h, text: 'Working on it', size: 4, everyMs: 500 });
    const result = await settle({ clock: h.clock, promise: h.delivery.finish({ note: 'I ran out of steps for this turn.' }) });
    assert.equal(result.finalText, 'Working on it\n\nI ran out of steps for this turn.');
    assert.deepEqual(shownTexts(h), [result.finalText]);
    assert.equal(await h.delivery.finish(), result, 'finish is idempotent');

    const i = harness();
    await stream({ h: i, text: 'Half an answ', size: 4, everyMs: 500 });
    const interrupted = await settle({ clock: i.clock, promise: i.delivery.abandon() });
    assert.deepEqual(shownTexts(i), ['Half an answ\n\n(interrupted)']);
    assert.equal(interrupted.finalText, 'Half an answ\n\n(interrupted)');
  });

  test('crash adoption edits the earlier messages in place; leftovers become "…"; sent files are not resent', async () => {
    const chart = path.join(dir, 'chart.png');
    const existing = [
      { seq: 0, platformMessageId: 'old-1', text: `Earlier attempt, part one${CURSOR}` },
      { seq: 1, platformMessageId: 'old-2', text: 'part two' },
      { seq: 2, platformMessageId: 'old-3', text: `MEDIA:${chart}` },
    ];
    const h = harness({ existing });
    h.adapter.seed({ id: 'old-1', text: existing[0]?.text ?? '' });
    h.adapter.seed({ id: 'old-2', text: 'part two' });
    await stream({ h, text: `The new answer.\nMEDIA:${chart}\n`, size: 5, everyMs: 400 });
    const result = await settle({ clock: h.clock, promise: h.delivery.finish() });

    assert.equal(h.adapter.sends.length, 0, 'nothing was sent again');
    assert.equal(h.adapter.messages.get('old-1')?.text, 'The new answer.');
    assert.equal(h.adapter.messages.get('old-2')?.text, '…');
    assert.deepEqual(result.messageIds, ['old-1', 'old-2', 'old-3']);
    assert.equal(result.attachmentsSent, 1);
    assert.deepEqual(
      h.journal.filter((r) => r.state === 'final').map((r) => [r.seq, r.platformMessageId, r.text]),
      [[0, 'old-1', 'The new answer.'], [1, 'old-2', '…']],
    );
  });

  test('the final edit is skipped when the platform already shows exactly the final text', async () => {
    const h = harness({ existing: [{ seq: 0, platformMessageId: 'old-1', text: 'Same answer' }] });
    h.adapter.seed({ id: 'old-1', text: 'Same answer' });
    h.delivery.push('Same answer');
    const result = await settle({ clock: h.clock, promise: h.delivery.finish() });
    assert.equal(h.adapter.calls.length, 0);
    assert.deepEqual(result.messageIds, ['old-1']);
    assert.deepEqual(h.journal.map((r) => r.state), ['final']);
  });

  test('a failed intermediate edit is skipped; a failing final edit is retried, then reported', async () => {
    const h = harness();
    h.delivery.push('First words');
    await h.clock.advance(100);
    h.adapter.failNext({ kind: 'edit', count: 1, message: 'network down' });
    await stream({ h, text: ' and more words', size: 3, everyMs: 400 });
    await h.clock.advance(3000);
    h.adapter.failNext({ kind: 'edit', count: 2, message: 'flaky' });
    const ok = await settle({ clock: h.clock, promise: h.delivery.finish() });
    assert.deepEqual(ok.errors, []);
    assert.deepEqual(shownTexts(h), ['First words and more words']);
    assert.equal(h.adapter.calls.filter((c) => c.outcome === 'failed').length, 3);

    const bad = harness();
    bad.delivery.push('Some text');
    await bad.clock.advance(100);
    bad.adapter.failNext({ kind: 'edit', count: 10, message: 'message to edit not found' });
    const failed = await settle({ clock: bad.clock, promise: bad.delivery.finish({ note: 'done' }) });
    assert.equal(failed.errors.length, 1);
    assert.match(failed.errors[0] ?? '', /part 1 of the reply: message to edit not found/);
    assert.equal(bad.adapter.calls.filter((c) => c.kind === 'edit').length, 3);
  });

  test('halt stops streaming and leaves the shown message open for a replay', async () => {
    const h = harness();
    await stream({ h, text: 'Partial reply being written', size: 5, everyMs: 600 });
    await settle({ clock: h.clock, promise: h.delivery.halt() });
    const callsAtHalt = h.adapter.calls.length;
    h.delivery.push(' more text');
    await h.clock.advance(5000);
    assert.equal(h.adapter.calls.length, callsAtHalt);
    assert.ok(shownTexts(h)[0]?.endsWith(CURSOR));
    assert.equal(h.journal.at(-1)?.state, 'open');
  });

  test('an aborted signal stops delivery and reports it instead of throwing', async () => {
    const controller = new AbortController();
    const h = harness({ signal: controller.signal });
    h.delivery.push('Hello there');
    await h.clock.advance(100);
    controller.abort(new Error('shutting down'));
    h.delivery.push(', more');
    const result = await settle({ clock: h.clock, promise: h.delivery.finish() });
    assert.equal(h.adapter.calls.length, 1);
    assert.match(result.errors.join('\n'), /stopped before the reply was complete/);
  });
});
