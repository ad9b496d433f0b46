import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChatRef } from '../../../src/core/adapter.js';
import { settle } from './helpers.js';
import { CURSOR, INTERVAL_MS, harness, shownTexts } from './stream-harness.js';

/** A platform showing text as it is (lines unchanged); markup platforms get each line as a code span (last test). */
const PLAIN = { markup: 'none' } as const;

describe('StreamDelivery tool activity lines', () => {
  test('on a platform that renders Markdown each line is a code span, so `*`, `_` and links in a command show as typed', async () => {
    const h = harness({ capabilities: { markup: 'markdown' } });
    h.delivery.progress({ lines: ['⚙ terminal: rm *.txt && ls *.md', '🔎 search_files "`x`"'], added: '🔎 search_files "`x`"' });
    await h.clock.advance(10);
    assert.equal(h.adapter.sends[0]?.text, `\`⚙ terminal: rm *.txt && ls *.md\`\n\`🔎 search_files "'x'"\`${CURSOR}`);
    h.delivery.push('Done.');
    await settle({ clock: h.clock, promise: h.delivery.finish() });
    assert.deepEqual(shownTexts(h), ['Done.']);
  });

  test('the lines show below the streamed text with the cursor after, and are gone from the final text', async () => {
    const h = harness({ capabilities: PLAIN });
    h.delivery.push('Let me look.');
    await h.clock.advance(10);
    h.delivery.progress({ lines: ['⚙ terminal: ls -la'], added: '⚙ terminal: ls -la' });
    await h.clock.advance(INTERVAL_MS + 10);
    assert.equal(h.adapter.calls.at(-1)?.text, `Let me look.\n\n⚙ terminal: ls -la${CURSOR}`);
    h.delivery.push('\n\nHere it is.');
    await h.clock.advance(INTERVAL_MS + 10);
    assert.equal(h.adapter.calls.at(-1)?.text, `Let me look.\n\nHere it is.\n\n⚙ terminal: ls -la${CURSOR}`);
    const result = await settle({ clock: h.clock, promise: h.delivery.finish() });
    assert.deepEqual(shownTexts(h), ['Let me look.\n\nHere it is.']);
    assert.equal(result.finalText, 'Let me look.\n\nHere it is.');
    assert.equal(h.adapter.sends.length, 1, 'never an extra message');
    assert.ok(!(h.journal.at(-1)?.text ?? '').includes('terminal'), 'the journal holds the final text');
  });

  test('a turn that starts with a tool call sends the lines first; the answer replaces them in the same message', async () => {
    const h = harness({ capabilities: PLAIN });
    h.delivery.progress({ lines: ['📖 read_file notes.md'], added: '📖 read_file notes.md' });
    await h.clock.advance(10);
    assert.equal(h.adapter.sends.length, 1);
    assert.equal(h.adapter.sends[0]?.text, `📖 read_file notes.md${CURSOR}`);
    assert.equal(h.adapter.sends[0]?.replyToId, 'in-1');
    h.delivery.push('The notes say hi.');
    await settle({ clock: h.clock, promise: h.delivery.finish() });
    assert.equal(h.adapter.sends.length, 1, 'the answer is an edit, not a second message');
    assert.deepEqual(shownTexts(h), ['The notes say hi.']);
  });

  test('a burst of 20 updates inside one second still makes at most one platform call per interval', async () => {
    const h = harness({ capabilities: PLAIN });
    h.delivery.push('Working.');
    await h.clock.advance(1);
    const lines: string[] = [];
    for (let i = 0; i < 20; i++) {
      lines.push(`⚙ terminal: step ${i}`);
      h.delivery.progress({ lines: lines.slice(-6), added: lines.at(-1) ?? '' });
      await h.clock.advance(40);
    }
    await h.clock.advance(3 * INTERVAL_MS);
    await settle({ clock: h.clock, promise: h.delivery.finish() });
    const calls = h.adapter.calls;
    for (let i = 1; i < calls.length; i++) {
      const gap = (calls[i]?.at ?? 0) - (calls[i - 1]?.endedAt ?? 0);
      assert.ok(gap >= INTERVAL_MS, `call ${i} came ${gap} ms after the previous one`);
    }
    // One send, one edit with the burst's last lines, the final edit.
    assert.ok(calls.length <= 3, `${calls.length} calls`);
    assert.ok(calls.some((c) => c.text.includes('step 19')), 'the latest lines were shown');
    assert.deepEqual(shownTexts(h), ['Working.']);
  });

  test('a platform without edits shows no lines and sends only the finished text', async () => {
    const h = harness({ capabilities: { ...PLAIN, edit: false } });
    h.delivery.progress({ lines: ['⚙ terminal: ls'], added: '⚙ terminal: ls' });
    h.delivery.push('Done.');
    await h.clock.advance(5 * INTERVAL_MS);
    assert.equal(h.adapter.calls.length, 0);
    await settle({ clock: h.clock, promise: h.delivery.finish() });
    assert.deepEqual(h.adapter.calls.map((c) => c.text), ['Done.']);
  });

  test('lines that do not fit the platform limit give way, oldest first; the text is never cut for them', async () => {
    const h = harness({ capabilities: { ...PLAIN, maxMessageLength: 200 } });
    const text = 'x'.repeat(150);
    h.delivery.push(text);
    await h.clock.advance(1);
    const lines = ['⚙ terminal: first command here', '⚙ terminal: second command', '📖 read_file third.md'];
    h.delivery.progress({ lines, added: lines[2] ?? '' });
    await h.clock.advance(INTERVAL_MS + 10);
    const shown = h.adapter.calls.at(-1)?.text ?? '';
    assert.ok(shown.length <= 200, `${shown.length} characters`);
    assert.ok(shown.startsWith(text) && shown.endsWith(`📖 read_file third.md${CURSOR}`), shown);
    assert.ok(!shown.includes('first command'), 'the oldest line gave way');
  });

  test('an adapter that shows the lines itself gets each new line once, after the text streamed before it', async () => {
    const h = harness({ capabilities: PLAIN });
    const printed: { line: string; textBefore: string }[] = [];
    const adapter = h.adapter as typeof h.adapter & { showToolProgress?: (p: { chat: ChatRef; line: string }) => void };
    adapter.showToolProgress = ({ line }) => printed.push({ line, textBefore: h.adapter.calls.at(-1)?.text ?? '' });
    h.delivery.push('Checking.');
    h.delivery.progress({ lines: ['⚙ terminal: ls'], added: '⚙ terminal: ls' });
    h.delivery.progress({ lines: ['⚙ terminal: ls ×2'] });
    // Text that came after the line, inside the same pacing interval, is shown after it.
    h.delivery.push(' Found it.');
    await h.clock.advance(INTERVAL_MS + 10);
    assert.deepEqual(printed, [{ line: '⚙ terminal: ls', textBefore: `Checking.${CURSOR}` }]);
    await h.clock.advance(INTERVAL_MS + 10);
    assert.equal(h.adapter.calls.at(-1)?.text, `Checking. Found it.${CURSOR}`);
    // A line added just before the reply finishes is still printed, before the final text.
    h.delivery.progress({ lines: [], added: '📖 read_file a.md' });
    h.delivery.push(' Bye.');
    await settle({ clock: h.clock, promise: h.delivery.finish() });
    assert.equal(printed.length, 2);
    assert.deepEqual(printed[1], { line: '📖 read_file a.md', textBefore: `Checking. Found it.${CURSOR}` });
    assert.ok(h.adapter.calls.every((c) => !c.text.includes('terminal') && !c.text.includes('read_file')), 'the lines stay out of the reply');
    assert.deepEqual(shownTexts(h), ['Checking. Found it. Bye.']);
  });
});
