import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { splitMessage } from '../../../src/gateway/delivery/split.js';
import { fenceLines, normalizeSpace, settle, stripAddedFences } from './helpers.js';
import { CURSOR, INTERVAL_MS, harness, shownTexts, stream } from './stream-harness.js';

/** About `length` characters of prose with paragraphs. */
function prose(length: number, seed: string): string {
  let out = '';
  for (let i = 0; out.length < length; i++) out += `${seed} sentence number ${i} goes here.${i % 5 === 4 ? '\n\n' : ' '}`;
  return out.trim();
}

describe('StreamDelivery while streaming', () => {
  test('sends at once, then edits no closer than the interval after the previous completion; final is exact', async () => {
    const h = harness({ latencyMs: 300 });
    const t0 = h.clock.now();
    const text = prose(3000, 'Alpha');
    await stream({ h, text, size: 10, everyMs: 50 });
    const result = await settle({ clock: h.clock, promise: h.delivery.finish() });

    const calls = h.adapter.calls;
    assert.equal(calls[0]?.kind, 'send');
    assert.equal(calls[0]?.at, t0, 'first visible text is sent at once');
    assert.equal(calls[0]?.replyToId, 'in-1');
    for (let i = 1; i < calls.length; i++) {
      const gap = (calls[i]?.at ?? 0) - (calls[i - 1]?.endedAt ?? 0);
      assert.ok(gap >= INTERVAL_MS, `call ${i} came ${gap} ms after the previous one completed`);
    }
    assert.equal(h.adapter.sends.length, 1);
    assert.ok(h.adapter.edits.length >= 5, 'deltas were streamed as edits');
    assert.ok(h.adapter.edits.length <= 15000 / (INTERVAL_MS + 300) + 2, 'many deltas coalesce into one edit');
    const streamed = calls.slice(0, -1).map((c) => c.text);
    for (let i = 0; i < streamed.length; i++) {
      const shown = streamed[i] ?? '';
      assert.ok(shown.endsWith(CURSOR));
      if (i > 0) assert.ok(shown.startsWith((streamed[i - 1] ?? '').slice(0, -CURSOR.length)), 'the message only grows');
    }
    assert.deepEqual(shownTexts(h), [text]);
    assert.equal(result.finalText, text);
    assert.deepEqual(result.errors, []);
    assert.equal(h.journal.at(-1)?.state, 'final');
    assert.equal(h.journal.at(-1)?.text, text);
  });

  test('a 429 storm yields no duplicate messages, no early call, and the complete final text', async () => {
    const h = harness({ latencyMs: 100 });
    h.adapter.rateLimitNext({ kind: 'send', count: 1, retryAfterMs: 2000 });
    h.adapter.rateLimitNext({ kind: 'edit', count: 5, retryAfterMs: 3000 });
    const text = prose(2000, 'Storm');
    await stream({ h, text, size: 7, everyMs: 40 });
    const result = await settle({ clock: h.clock, promise: h.delivery.finish() });

    assert.equal(h.adapter.calls.filter((c) => c.outcome === 'rate-limited').length, 6);
    assert.deepEqual(h.adapter.earlyCalls, [], 'nothing called before retry_after passed');
    assert.equal(h.adapter.sends.length, 1, 'a refused send is retried as a send; refused edits never become sends');
    assert.deepEqual(shownTexts(h), [text]);
    assert.deepEqual(result.errors, []);
    const refused = h.adapter.calls.findIndex((c) => c.kind === 'edit' && c.outcome === 'rate-limited');
    const retry = h.adapter.calls[refused + 1];
    assert.ok(retry && retry.text.length >= (h.adapter.calls[refused]?.text.length ?? 0), 'the retry carries the latest text');
  });

  test('overflow continues in new messages, each within the limit, earlier ones final and never edited again', async () => {
    const limit = 300;
    const h = harness({ capabilities: { maxMessageLength: limit } });
    const code = Array.from({ length: 20 }, (_, i) => `  let v${i} = f(${i}); // step ${i}`).join('\n');
    const text = `${prose(500, 'Before')}\n\n\`\`\`ts\n${code}\n\`\`\`\n\n${prose(500, 'After')}`;
    await stream({ h, text, size: 13, everyMs: 100 });
    const result = await settle({ clock: h.clock, promise: h.delivery.finish() });

    assert.deepEqual(result.errors, []);
    assert.equal(h.adapter.calls.filter((c) => c.outcome !== 'ok').length, 0, 'no call was refused as too long');
    const shown = shownTexts(h);
    assert.ok(shown.length >= 5, `expected several messages, got ${shown.length}`);
    assert.equal(new Set(h.adapter.sends.map((s) => s.messageId)).size, shown.length);
    for (const message of shown) {
      assert.ok(message.length <= limit);
      assert.equal(fenceLines(message).length % 2, 0, `unbalanced fences:\n${message}`);
      assert.ok(!message.includes(CURSOR));
    }
    assert.ok(shown.some((m) => m.startsWith('```ts\n')), 'the code block was reopened in a later message');
    assert.equal(normalizeSpace(stripAddedFences(shown).join(' ')), normalizeSpace(text));
    assert.equal(result.messageIds.length, shown.length);
    for (const send of h.adapter.sends) {
      const finalAt = h.journal.find((r) => r.platformMessageId === send.messageId && r.state === 'final')?.at;
      assert.ok(finalAt !== undefined);
      const lastFinal = h.journal.filter((r) => r.platformMessageId === send.messageId).at(-1);
      assert.equal(lastFinal?.state, 'final');
      const later = h.adapter.edits.filter((e) => e.messageId === send.messageId && e.at > finalAt);
      assert.deepEqual(later, [], `message ${send.messageId} was edited after it was finalized`);
    }
    assert.ok(
      h.journal.some((r) => r.state === 'final' && r.at < (h.adapter.calls.at(-1)?.at ?? 0) - 2 * INTERVAL_MS),
      'earlier messages were finalized while streaming, not only at the end',
    );
  });

  test('a message that fills up while a word is still streaming is cut at a boundary, not mid-word', async () => {
    const h = harness({ capabilities: { maxMessageLength: 100 } });
    const words = `${'word '.repeat(19)}streaming tail words and then some more`;
    const head = words.slice(0, 99);
    assert.match(words.slice(97, 101), /^\S{4}$/, 'the stream pauses mid-word at 99 characters');
    h.delivery.push(head.slice(0, 5));
    await h.clock.advance(10);
    h.delivery.push(head.slice(5));
    await h.clock.advance(1500);
    h.delivery.push(words.slice(99));
    const result = await settle({ clock: h.clock, promise: h.delivery.finish() });
    const shown = shownTexts(h);
    assert.equal(shown.length, 2);
    assert.equal(normalizeSpace(shown.join(' ')), normalizeSpace(words));
    assert.equal(result.finalText, words);
  });

  test('refuses a platform limit too small to stream with the cursor', () => {
    assert.throws(() => harness({ capabilities: { maxMessageLength: 17 } }), /too few to stream with the cursor/);
  });

  test('a platform without edits gets nothing until finish, then only the final chunks in order', async () => {
    const h = harness({ capabilities: { edit: false, maxMessageLength: 100 } });
    const text = prose(450, 'Plain');
    await stream({ h, text, size: 20, everyMs: 200 });
    await h.clock.advance(5000);
    assert.equal(h.adapter.calls.length, 0);
    const result = await settle({ clock: h.clock, promise: h.delivery.finish() });
    assert.deepEqual(shownTexts(h), splitMessage({ text, limit: 100 }));
    assert.equal(h.adapter.edits.length, 0);
    assert.equal(h.adapter.sends[0]?.replyToId, 'in-1');
    assert.ok(h.adapter.sends.slice(1).every((s) => s.replyToId === undefined));
    assert.equal(result.messageIds.length, h.adapter.sends.length);
  });
});
