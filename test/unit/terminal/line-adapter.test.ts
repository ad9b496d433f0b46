import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { TerminalAdapter } from '../../../adapters/terminal/adapter.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const chat = { id: 'local', kind: 'dm' as const };

test('hermes chat without a terminal for input: escape sequences in the model text or a tool line are not written', async () => {
  const output = new PassThrough();
  let out = '';
  output.on('data', (d: Buffer) => (out += d.toString()));
  const adapter = new TerminalAdapter({ input: new PassThrough(), output, cursor: ' ▍', clock: new FakeClock(), user: 'me', onEnd: () => undefined, dim: true });
  const { messageId } = await adapter.send({ chat, text: 'Hi\u001b]52;c;cm0=\u0007 ▍' });
  adapter.showToolProgress({ line: '⚙ terminal: printf \u001b[2J' });
  await adapter.edit({ chat, messageId, text: 'Hi\u001b]52;c;cm0=\u0007 there\u001b[1A.' });
  for (const sequence of ['\u001b]52', '\u0007', '\u001b[2J', '\u001b[1A']) assert.ok(!out.includes(sequence), JSON.stringify({ sequence, out }));
  assert.ok(out.includes('Hi]52;c;cm0=') && out.includes(' there[1A.'), JSON.stringify(out));
});
