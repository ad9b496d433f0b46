import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalize } from '../../../src/tools/builtin/case-fold.js';
import { compileLinearPattern } from '../../../src/tools/builtin/linear-regex.js';
import { rewritePattern } from '../../../src/tools/builtin/search-pattern.js';

const PATTERNS = [
  'todo',
  'TODO:\\s*fix',
  '\\bfoo\\b',
  '[a-f]+\\d',
  '[^a-z]x',
  '[^]',
  '[]',
  '[\\w-]+@',
  '[A-Z][a-z]*Error',
  '\\x41b',
  '\\u0062C',
  '\\101',
  '\\cJ',
  '\\c1',
  '(?<word>ab)+c',
  '(a|b)(c|d)',
  '(?:x|y)z',
  '\\.ts$',
  '^\\s*import',
  'ǆ|µ',
  'straße',
  'café',
  '[à-ÿ]+',
  'a{2,3}',
  '\\(call\\)',
  '[\\]a]',
  'é',
];

const TEXTS = [
  'TODO: fix it',
  'todo:fix',
  'a Foo bar',
  'ABC1',
  'xyz',
  'Ax',
  '1x',
  'mail-Me@host',
  'TypeError here',
  'typeerror',
  'AB',
  'ab',
  'bc',
  'Bc',
  'a',
  'A',
  '\n',
  '\\c1',
  '\\C1',
  'ABAB c',
  'ac BD',
  'XZ',
  'file.TS',
  '  IMPORT x',
  'Ǆ',
  'ǅ',
  'μ',
  'Μ',
  'STRASSE',
  'STRAßE',
  'CAFÉ',
  'ÀÉÎ',
  'ÿ',
  'Ÿ',
  'aaA',
  '(CALL)',
  ']',
  'É',
  '',
];

describe('linear search patterns', () => {
  for (const ignoreCase of [false, true]) {
    test(`match exactly like JavaScript regular expressions (ignoreCase ${ignoreCase})`, () => {
      for (const pattern of PATTERNS) {
        const reference = new RegExp(pattern, ignoreCase ? 'i' : '');
        const linear = compileLinearPattern({ pattern, ignoreCase });
        assert.ok(linear.regex.flags.includes('l'), pattern);
        for (const text of TEXTS) {
          assert.equal(linear.regex.test(linear.prepare(text)), reference.test(text), `/${pattern}/ on ${JSON.stringify(text)}`);
        }
      }
    });
  }

  test('capturing groups become non-capturing; escaped parentheses and classes are left alone', () => {
    assert.equal(rewritePattern({ pattern: '(a)(?<n>b)(?:c)\\(d\\)[(]', ignoreCase: false }), '(?:a)(?:b)(?:c)\\(d\\)[(]');
    assert.equal(rewritePattern({ pattern: '[a-c]x\\d', ignoreCase: true }), '[a-c\\u0041-\\u0043]\\u0058\\d');
  });

  test('canonicalize keeps length and line breaks', () => {
    assert.equal(canonicalize('Straße\r\nµ ǆ'), 'STRAßE\r\nΜ Ǆ');
    assert.equal(canonicalize('x'.repeat(20_000)).length, 20_000);
  });

  test('invalid patterns are reported as such', () => {
    assert.throws(() => compileLinearPattern({ pattern: '(', ignoreCase: false }), /not a valid regular expression/);
    assert.throws(() => compileLinearPattern({ pattern: '[z-a]', ignoreCase: true }), /not a valid regular expression/);
  });
});
