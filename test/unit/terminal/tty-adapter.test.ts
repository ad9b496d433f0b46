import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { stripVTControlCharacters } from 'node:util';
import { TtyTerminalAdapter } from '../../../adapters/terminal/tty-adapter.js';
import type { MessageEvent } from '../../../src/core/adapter.js';
import { FakeClock, flushMicrotasks } from '../../helpers/fake-clock.js';

const chat = { id: 'local', kind: 'dm' as const };
const DIM = '\u001b[2m';

/** A started TtyTerminalAdapter on in-memory streams (input claims raw mode), with what it emitted and printed. */
async function started(): Promise<{ adapter: TtyTerminalAdapter; input: PassThrough; out: () => string; emitted: MessageEvent[]; clock: FakeClock; stop: () => Promise<void> }> {
  const input = Object.assign(new PassThrough(), { setRawMode: (): boolean => true });
  const output = Object.assign(new PassThrough(), { columns: 80 });
  let out = '';
  output.on('data', (d: Buffer) => (out += d.toString()));
  const clock = new FakeClock();
  const adapter = new TtyTerminalAdapter({ input, output, cursor: ' ▍', clock, user: 'me', onEnd: () => undefined, render: (text) => `<${text.trim()}>` });
  const emitted: MessageEvent[] = [];
  const controller = new AbortController();
  const running = adapter.start({
    signal: controller.signal,
    emit: async (event) => {
      emitted.push(event);
    },
    report: () => undefined,
    storage: { get: () => undefined, set: () => undefined },
    mayTalk: () => true,
    choose: async () => ({}),
  });
  await flushMicrotasks();
  return {
    adapter,
    input,
    out: () => out,
    emitted,
    clock,
    stop: async () => {
      controller.abort();
      await running;
    },
  };
}

test('terminal chat: a spinner until the first text, finished blocks rendered above, tool lines dimmed in order', async () => {
  const t = await started();
  try {
    t.input.write('hi\r');
    await flushMicrotasks();
    assert.equal(t.emitted[0]?.text, 'hi');
    await t.adapter.typing({ chat });
    await t.clock.advance(200);
    assert.match(t.out(), /thinking…/);
    const mark = t.out().length;
    const { messageId } = await t.adapter.send({ chat, text: 'Let me ▍' });
    await t.adapter.edit({ chat, messageId, text: 'Let me look.\n\nA second ▍' });
    assert.ok(t.out().slice(mark).includes('<Let me look.>'), 'the finished paragraph is rendered');
    t.adapter.showToolProgress({ chat, line: '⚙ terminal: ls' });
    await t.adapter.edit({ chat, messageId, text: 'Let me look.\n\nA second block.\n\nDone.' });
    const after = t.out().slice(mark);
    // The text before the tool line is shown before it; what follows is rendered once the message is complete.
    const order = ['<Let me look.>', '<A second>', `${DIM}⚙ terminal: ls`, '<block.\r\n\r\nDone.>'].map((s) => after.indexOf(s));
    assert.ok(order.every((i, n) => i >= 0 && (n === 0 || i > (order[n - 1] ?? 0))), JSON.stringify({ order, after }));
    // Once the answer is complete, no spinner is left in the last drawn region.
    assert.ok(!stripVTControlCharacters(after.slice(after.lastIndexOf('Done.>'))).includes('thinking'));
  } finally {
    await t.stop();
  }
});

test('terminal chat: a MEDIA file is a path with its size; Ctrl-C while busy sends /stop', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-tty-media-'));
  const t = await started();
  try {
    const file = path.join(dir, 'photo.png');
    writeFileSync(file, Buffer.alloc(3 * 1024 * 1024));
    await t.adapter.send({ chat, text: 'Here it is.', attachments: [{ path: file, kind: 'image' }] });
    assert.ok(t.out().includes(`📎 ${file} (3.0 MB)`));
    await t.adapter.typing({ chat });
    t.input.write('\u0003');
    await flushMicrotasks();
    assert.equal(t.emitted.at(-1)?.text, '/stop');
  } finally {
    await t.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('terminal chat: escape sequences in the model text, a tool line or a MEDIA path never reach the terminal', async () => {
  const t = await started();
  try {
    const mark = t.out().length;
    const hostile = 'Hi\u001b]52;c;cm0gLXJmIH4=\u0007 there\u001b[2J\u009b31m\rdone';
    const { messageId } = await t.adapter.send({ chat, text: `${hostile} ▍` });
    await t.adapter.edit({ chat, messageId, text: `${hostile}\n\nmore ▍` });
    t.adapter.showToolProgress({ chat, line: '⚙ terminal: printf \u001b]0;title\u0007' });
    await t.adapter.edit({ chat, messageId, text: `${hostile}\n\nmore.` });
    await t.adapter.send({ chat, text: 'file', attachments: [{ path: '/nonexistent/a\u001b[2Jb.png', kind: 'image' }] });
    const shown = t.out().slice(mark);
    for (const sequence of ['\u001b]52', '\u001b]0', '\u001b[2J', '\u009b', '\u0007']) assert.ok(!shown.includes(sequence), JSON.stringify({ sequence, shown }));
    assert.ok(shown.includes(']52;c;cm0gLXJmIH4= there'), 'the text around it is kept');
    assert.ok(shown.includes('a[2Jb.png'));
  } finally {
    await t.stop();
  }
});
