import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { stripVTControlCharacters } from 'node:util';
import { TtyScreen } from '../../../adapters/terminal/screen.js';
import { lastRows } from '../../../adapters/terminal/width.js';

/** A TtyScreen on a 40x10 in-memory terminal, with everything written to it. */
function screen(): { screen: TtyScreen; out: () => string } {
  const output = Object.assign(new PassThrough(), { columns: 40, rows: 10 });
  let out = '';
  output.on('data', (d: Buffer) => (out += d.toString()));
  return { screen: new TtyScreen({ output, prompt: '› ' }), out: () => out };
}

/** The largest cursor-up move written: an erase must never move above the screen's top row. */
function largestUp(params: { out: string }): number {
  return Math.max(0, ...[...params.out.matchAll(/\u001b\[(\d+)A/g)].map((m) => Number(m[1])));
}

test('an unfinished block taller than the screen shows its last rows after a … line; the region never outgrows the screen', () => {
  const s = screen();
  s.screen.setInput({ input: { text: 'typed', cursor: 5 } });
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i}`);
  for (let n = 1; n <= lines.length; n++) s.screen.setTail({ text: lines.slice(0, n).join('\n') });
  assert.ok(largestUp({ out: s.out() }) < 10, `moved up ${largestUp({ out: s.out() })} rows on a 10-row screen`);
  const region = stripVTControlCharacters(s.out().slice(s.out().lastIndexOf('\u001b[0J')));
  assert.match(region, /^…\r\n/);
  assert.match(region, /line 29\r\n› typed/);
  assert.doesNotMatch(region, /line 0\r\n/);
  // Once finished, the whole block is written above in full.
  s.screen.commit({ text: lines.join('\n'), tail: '' });
  const committed = stripVTControlCharacters(s.out().slice(s.out().lastIndexOf('\u001b[0J')));
  assert.ok(lines.every((line) => committed.includes(`${line}\r\n`)), committed);
});

test('lastRows: lines that fit are kept whole; a line too tall for what is left is cut to its end; no room: nothing', () => {
  assert.deepEqual(lastRows({ lines: ['a', 'b'], rows: 2, columns: 10 }), ['a', 'b']);
  assert.deepEqual(lastRows({ lines: ['a', 'b', 'c'], rows: 2, columns: 10 }), ['…', 'c']);
  assert.deepEqual(lastRows({ lines: ['x'.repeat(32) + 'END'], rows: 3, columns: 10 }), ['…', 'x'.repeat(17) + 'END']);
  assert.deepEqual(lastRows({ lines: ['a', 'b'], rows: 1, columns: 10 }), []);
});
