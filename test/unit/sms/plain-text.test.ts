import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { toPlainText } from '../../../adapters/sms/plain-text.js';

describe('toPlainText', () => {
  test('drops emphasis markers and headings, keeps the words', () => {
    assert.equal(toPlainText({ markdown: '# Plan\n\nThis is **really** _quite_ ~~not~~ important.' }), 'Plan\n\nThis is really quite not important.');
  });

  test('keeps link URLs: "text (url)", or just the URL when that is the text', () => {
    assert.equal(toPlainText({ markdown: 'See [the docs](https://example.com/docs).' }), 'See the docs (https://example.com/docs).');
    assert.equal(toPlainText({ markdown: 'Go to <https://example.com> or https://example.org now' }), 'Go to https://example.com or https://example.org now');
    assert.equal(toPlainText({ markdown: '![a cat](https://example.com/cat.png)' }), 'a cat (https://example.com/cat.png)');
  });

  test('code fences become plain code; inline code loses its backticks', () => {
    assert.equal(toPlainText({ markdown: 'Run `npm test`:\n\n```sh\nnpm ci\nnpm test\n```\n\nDone.' }), 'Run npm test:\n\nnpm ci\nnpm test\n\nDone.');
  });

  test('lists, quotes and tables stay readable', () => {
    assert.equal(toPlainText({ markdown: '- one\n- two\n  - nested' }), '• one\n• two\n  • nested');
    assert.equal(toPlainText({ markdown: '1. first\n2. second' }), '1. first\n2. second');
    assert.equal(toPlainText({ markdown: '> quoted\n> text' }), '> quoted\ntext'.replace('\n', '\n> '));
    assert.equal(toPlainText({ markdown: '| a | b |\n|---|---|\n| 1 | 2 |' }), 'a | b\n1 | 2');
  });

  test('escapes and entities come out as the characters they stand for', () => {
    assert.equal(toPlainText({ markdown: '5 \\* 3 & 2 < 4' }), '5 * 3 & 2 < 4');
  });

  test('plain text passes unchanged, and the result is never longer than the markdown', () => {
    const plain = 'Just a sentence. And another one! Is it fine? Yes.';
    assert.equal(toPlainText({ markdown: plain }), plain);
    const samples = ['**a** [b](http://c.d) `e`', '- x\n- y\n\n1. z', '```\ncode\n```', '> q\n\n---\n\n| h |\n|---|\n| c |', '1. a\n1. b\n1. c'];
    for (const markdown of samples) assert.ok(toPlainText({ markdown }).length <= markdown.length, markdown);
  });
});
