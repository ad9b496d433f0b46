import assert from 'node:assert/strict';
import { test } from 'node:test';
import { charCount, entriesChars, ENTRY_DELIMITER, hasSeparatorLine, parseEntries, serializeEntries } from '../../../src/memory/format.js';

test("a file written by Hermes (entries joined by \\n§\\n, multi-line entries, § inside a line) reads entry by entry", () => {
  const hermes = ['User prefers metric units', 'Deploys go through `make ship`\nnever on Fridays', 'Price was 5 § per unit'].join('\n§\n');
  assert.deepEqual(parseEntries({ text: hermes }), ['User prefers metric units', 'Deploys go through `make ship`\nnever on Fridays', 'Price was 5 § per unit']);
});

test('odd spacing parses: spaces and tabs around §, blank lines, CRLF line ends, a BOM, leading and trailing separators', () => {
  const text = '\uFEFF§\r\n\r\n  first entry  \r\n  §\t\r\n\n\nsecond entry\nline two\n\t§ \n§\n   \n§\nthird\n§\n';
  assert.deepEqual(parseEntries({ text }), ['first entry', 'second entry\nline two', 'third']);
});

test('an empty or whitespace-only file has no entries', () => {
  assert.deepEqual(parseEntries({ text: '' }), []);
  assert.deepEqual(parseEntries({ text: ' \n\n§\n  ' }), []);
});

test("our files are Hermes's bytes: entries joined by \\n§\\n, no trailing newline, and they read back unchanged", () => {
  const entries = ['one', 'two\nlines', 'three'];
  const text = serializeEntries({ entries });
  assert.equal(text, 'one\n§\ntwo\nlines\n§\nthree');
  assert.equal(ENTRY_DELIMITER, '\n§\n');
  assert.deepEqual(text.split(ENTRY_DELIMITER), entries, "Hermes's reader (split on the delimiter) sees the same entries");
  assert.deepEqual(parseEntries({ text }), entries);
  assert.equal(serializeEntries({ entries: [] }), '');
});

test('usage counts code points over the joined text (as Hermes counts), delimiters included', () => {
  assert.equal(charCount({ text: 'ab😀' }), 3);
  assert.equal(entriesChars({ entries: ['abc', 'de'] }), 3 + 3 + 2);
  assert.equal(entriesChars({ entries: [] }), 0);
});

test('a line holding only § inside content is found (it would split the entry); § within a line is not', () => {
  assert.equal(hasSeparatorLine({ text: 'a\n § \nb' }), true);
  assert.equal(hasSeparatorLine({ text: 'a\r\n§\r\nb' }), true);
  assert.equal(hasSeparatorLine({ text: 'costs 5 § each' }), false);
});
