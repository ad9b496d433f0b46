import assert from 'node:assert/strict';
import { test } from 'node:test';
import { speakableText, speechChunks } from '../../../src/media/speakable.js';

test('speakableText: code blocks, MEDIA lines and table rules are left out; links read by their label; markdown marks dropped', () => {
  const text = [
    '# Results',
    'The **build** passed; see [the log](https://ci.example/1) or https://ci.example/raw.',
    '```',
    'npm test',
    '```',
    '- first_item stays as written',
    '| name | state |',
    '|------|-------|',
    '| api | up |',
    'MEDIA:/tmp/report.pdf',
  ].join('\n');
  assert.equal(speakableText({ text }), 'Results\nThe build passed; see the log or a link.\n(The code is in the text.)\nfirst_item stays as written\nname, state\napi, up');
});

test('speechChunks: parts end at sentences, a sentence longer than a part at words (never mid-word), at most maxParts', () => {
  const text = 'One short sentence. Another short one! A third? ' + 'word '.repeat(30).trim() + '.';
  const { parts, cut } = speechChunks({ text, maxChars: 40, maxParts: 10 });
  assert.equal(cut, false);
  assert.deepEqual(parts.slice(0, 2), ['One short sentence. Another short one!', 'A third?']);
  for (const part of parts) {
    assert.ok(part.length <= 40, part);
    assert.ok(/^(word ?)+\.?$/.test(part) || !part.includes('wor '), part);
  }
  assert.equal(parts.slice(2).join(' '), `${'word '.repeat(30).trim()}.`);
  const limited = speechChunks({ text, maxChars: 40, maxParts: 2 });
  assert.deepEqual([limited.parts.length, limited.cut], [2, true]);
  assert.deepEqual(speechChunks({ text: '   ', maxChars: 40, maxParts: 2 }), { parts: [], cut: false });
});
