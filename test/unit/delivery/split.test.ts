import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MIN_SPLIT_LIMIT, splitMessage, takeChunk } from '../../../src/gateway/delivery/split.js';
import { fenceLines, normalizeSpace, stripAddedFences } from './helpers.js';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const FAMILY = '👨‍👩‍👧';

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Prose of about `length` characters: sentences, some line breaks, paragraphs. */
function prose(length: number, next: () => number): string {
  const words = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];
  let out = '';
  while (out.length < length) {
    out += words[Math.floor(next() * words.length)];
    const r = next();
    out += r < 0.08 ? '. ' : r < 0.1 ? '.\n' : r < 0.11 ? '.\n\n' : ' ';
  }
  return out.trim();
}

/** Code lines of about `length` characters. */
function code(length: number): string {
  const lines: string[] = [];
  for (let i = 0; lines.join('\n').length < length; i++) lines.push(`  const value${i} = compute(${i}, "${'x'.repeat(i % 40)}");`);
  return lines.join('\n');
}

/** Checks the invariants every split must keep. */
function assertValidSplit(text: string, chunks: string[], limit: number): void {
  assert.ok(chunks.length > 0);
  for (const chunk of chunks) {
    assert.ok(chunk.length <= limit, `chunk of ${chunk.length} > ${limit}`);
    assert.equal(fenceLines(chunk).length % 2, 0, `unbalanced fences in chunk:\n${chunk}`);
    assert.doesNotMatch(chunk, LONE_SURROGATE);
    assert.equal(chunk, chunk.replace(/^(?:[ \t]*\n)+/, '').trimEnd(), 'chunk not trimmed of blank lines');
  }
  // Only whitespace at cuts may be dropped (a hard cut between graphemes has none), so compare without it.
  const content = (value: string): string => value.replace(/\s+/g, '');
  assert.equal(content(stripAddedFences(chunks).join('')), content(text));
}

describe('splitMessage', () => {
  test('a 10,000-char answer with a code fence in the middle, at 4096', () => {
    const next = random(42);
    const text = `${prose(2500, next)}\n\n\`\`\`ts\n${code(5000)}\n\`\`\`\n\n${prose(2500, next)}`;
    assert.ok(text.length >= 10_000);
    const chunks = splitMessage({ text, limit: 4096 });
    assert.ok(chunks.length >= 3);
    assertValidSplit(text, chunks, 4096);
    assert.equal(normalizeSpace(stripAddedFences(chunks).join(' ')), normalizeSpace(text), 'cuts fall on whitespace');
    assert.ok(chunks.slice(1).some((c) => c.startsWith('```ts\n')), 'the code block is reopened with its language');
    assert.ok(chunks.slice(0, -1).some((c) => c.endsWith('\n```') && fenceLines(c).length > 0));
  });

  test('short text is one chunk, trimmed of blank lines at its ends only', () => {
    assert.deepEqual(splitMessage({ text: '\n\n  \nHello\n\n\n\n  World  \n\n', limit: 100 }), ['Hello\n\n\n\n  World']);
    assert.deepEqual(splitMessage({ text: ' \n\n ', limit: 100 }), []);
  });

  test('prefers a paragraph break in the second half of the window', () => {
    const first = 'One line.\nAnother line. With sentences and words '.padEnd(70, 'w');
    const second = 'Second paragraph. More words here '.padEnd(80, 'z');
    assert.deepEqual(splitMessage({ text: `${first}\n\n${second}`, limit: 100 }), [first, second]);
  });

  test('a paragraph break too early falls back to a line break, then a sentence, then a space', () => {
    const byLine = `Hi.\n\n${'a'.repeat(70)}\n${'b'.repeat(60)}`;
    assert.deepEqual(splitMessage({ text: byLine, limit: 100 }), [`Hi.\n\n${'a'.repeat(70)}`, 'b'.repeat(60)]);
    const bySentence = `${'word '.repeat(14)}end. ${'tail '.repeat(10)}`;
    assert.equal(splitMessage({ text: bySentence, limit: 80 })[0], `${'word '.repeat(14)}end.`);
    const bySpace = 'abcdefghi '.repeat(20);
    const chunks = splitMessage({ text: bySpace, limit: 55 });
    assert.equal(chunks[0], 'abcdefghi '.repeat(5).trimEnd());
    assertValidSplit(bySpace, chunks, 55);
  });

  test('a hard cut never splits a surrogate pair, a ZWJ family or a flag', () => {
    const limit = 100;
    for (const [emoji, offset] of [['😀', 1], [FAMILY, 3], [FAMILY, 7], ['🇩🇪', 2], ['🇩🇪🇫🇷🇮🇹', 3]] as const) {
      const text = `${'a'.repeat(limit - offset)}${emoji}${'b'.repeat(50)}`;
      const chunks = splitMessage({ text, limit });
      assert.equal(chunks.join(''), text, `content kept for ${emoji}`);
      assert.ok(chunks.every((c) => c.length <= limit && !LONE_SURROGATE.test(c)));
      assert.ok(chunks.some((c) => c.includes(emoji)), `${emoji} intact in one chunk`);
    }
  });

  test('a run of flags is cut between flags, never between the halves of one', () => {
    const text = `${'a'.repeat(95)}${'🇩🇪'.repeat(10)}`;
    const chunks = splitMessage({ text, limit: 100 });
    assert.equal(chunks.join(''), text);
    const tail = chunks[1] ?? '';
    assert.ok(tail.startsWith('🇩🇪') && tail.length % 4 === 0, `second chunk starts on a flag: ${tail}`);
  });

  test('a fence open at a chunk end is closed and reopened with its original line', () => {
    const text = `Intro text.\n\n\`\`\`python\n${code(300)}\n\`\`\`\n\nAfter the code.`;
    const chunks = splitMessage({ text, limit: 120 });
    assertValidSplit(text, chunks, 120);
    assert.ok(chunks.filter((c) => c.startsWith('```python\n')).length >= 2);
  });

  test('an opening fence on the last line of a chunk moves to the next chunk', () => {
    const text = `${'x'.repeat(40)}\n\`\`\`ts\n${'const a = 1;\n'.repeat(5)}\`\`\``;
    const chunks = splitMessage({ text, limit: 50 });
    assert.equal(chunks[0], 'x'.repeat(40));
    assert.ok(chunks[1]?.startsWith('```ts\nconst a = 1;'));
    assertValidSplit(text, chunks, 50);
  });

  test('a fence line too long to repeat is reopened as a bare fence', () => {
    const text = `\`\`\`${'l'.repeat(30)}\n${code(200)}\n\`\`\``;
    const chunks = splitMessage({ text, limit: 50 });
    assert.ok(chunks.length > 2);
    assert.ok(chunks.slice(1).every((c) => c.startsWith('```\n')));
    assert.ok(chunks.every((c) => c.length <= 50 && fenceLines(c).length % 2 === 0));
  });

  test('random texts keep every invariant at many limits', () => {
    const next = random(7);
    for (let round = 0; round < 60; round++) {
      const parts: string[] = [];
      for (let p = 0; p < 4; p++) {
        parts.push(prose(20 + Math.floor(next() * 300), next));
        if (next() < 0.4) parts.push(`\`\`\`js\n${code(Math.floor(next() * 400))}\n\`\`\``);
        if (next() < 0.3) parts.push(`${FAMILY}🇩🇪😀`.repeat(1 + Math.floor(next() * 8)));
      }
      const text = parts.join('\n\n');
      const limit = MIN_SPLIT_LIMIT + Math.floor(next() * 300);
      assertValidSplit(text, splitMessage({ text, limit }), limit);
    }
  });

  test('limits below the minimum are refused with a clear error', () => {
    assert.throws(() => splitMessage({ text: 'hello', limit: MIN_SPLIT_LIMIT - 1 }), {
      name: 'RangeError',
      message: new RegExp(`at least ${MIN_SPLIT_LIMIT}`),
    });
    assert.throws(() => takeChunk({ text: 'hello', limit: 20.5 }), RangeError);
  });

  test('takeChunk continues a split that is inside a fence', () => {
    const taken = takeChunk({ text: `${'line\n'.repeat(10)}\`\`\`\nafter`, limit: 30, openFence: '```sh' });
    assert.ok(taken.text.startsWith('```sh\nline'));
    assert.ok(taken.text.endsWith('\n```'));
    assert.equal(taken.openFence, '```sh');
    assert.ok(taken.consumed > 0 && taken.text.length <= 30);
  });
});
