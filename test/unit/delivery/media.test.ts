import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { extractMedia, mediaKindFor, visibleStreamingText } from '../../../src/gateway/delivery/media.js';

describe('extractMedia', () => {
  test('takes MEDIA lines out of the text and lists their files with kinds', () => {
    const text = 'Here is the chart:\nMEDIA:/tmp/out/chart.PNG\n  MEDIA: /tmp/out/talk.ogg  \nAnd the data.\nMEDIA:/tmp/out/data.csv';
    const result = extractMedia({ text });
    assert.equal(result.text, 'Here is the chart:\nAnd the data.\n');
    assert.deepEqual(result.media, [
      { path: '/tmp/out/chart.PNG', kind: 'image' },
      { path: '/tmp/out/talk.ogg', kind: 'voice' },
      { path: '/tmp/out/data.csv', kind: 'document' },
    ]);
  });

  test('keeps MEDIA lines inside code fences, relative paths and mentions mid-line', () => {
    const text = 'Use it like this:\n```\nMEDIA:/tmp/example.png\n```\nMEDIA:relative.png\nThe MEDIA:/x.png tag.\nMEDIA:/real.mp4\n';
    const result = extractMedia({ text });
    assert.equal(result.text, 'Use it like this:\n```\nMEDIA:/tmp/example.png\n```\nMEDIA:relative.png\nThe MEDIA:/x.png tag.\n');
    assert.deepEqual(result.media, [{ path: '/real.mp4', kind: 'video' }]);
  });

  test('lists a file named twice once', () => {
    assert.equal(extractMedia({ text: 'MEDIA:/a.mp3\nMEDIA: /a.mp3\n' }).media.length, 1);
  });
});

describe('mediaKindFor', () => {
  test('maps extensions to kinds, case-insensitively, defaulting to document', () => {
    const cases: Record<string, string> = {
      'a.png': 'image', 'a.JPG': 'image', 'a.jpeg': 'image', 'a.gif': 'image', 'a.webp': 'image',
      'a.ogg': 'voice', 'a.opus': 'voice',
      'a.mp3': 'audio', 'a.m4a': 'audio', 'a.wav': 'audio', 'a.flac': 'audio', 'a.aac': 'audio',
      'a.mp4': 'video', 'a.mov': 'video', 'a.webm': 'video', 'a.mkv': 'video',
      'a.pdf': 'document', 'noext': 'document', '/dir.png/file': 'document',
    };
    for (const [path, kind] of Object.entries(cases)) assert.equal(mediaKindFor({ path: `/x/${path}` }), kind, path);
  });
});

describe('visibleStreamingText', () => {
  test('holds back an unfinished line that could still become a MEDIA line', () => {
    assert.equal(visibleStreamingText({ text: 'Hello\nME' }), 'Hello\n');
    assert.equal(visibleStreamingText({ text: 'Hello\n  MEDIA:/tmp/a' }), 'Hello\n');
    assert.equal(visibleStreamingText({ text: 'Hello\n   ' }), 'Hello\n');
    assert.equal(visibleStreamingText({ text: 'Hello\nMEX' }), 'Hello\nMEX');
    assert.equal(visibleStreamingText({ text: 'Hello wor' }), 'Hello wor');
    assert.equal(visibleStreamingText({ text: 'Hello\nMEDIA:/tmp/a.png\nDone' }), 'Hello\nDone');
    assert.equal(visibleStreamingText({ text: '```\nMEDIA:/in/code' }), '```\nMEDIA:/in/code');
  });

  test('only ever grows over a stream of deltas, and ends as a prefix of the extracted text', () => {
    const full =
      'Intro line.\nMEDIA:/tmp/one.png\n  MEDIA: /tmp/two.mp3\nMEDIUM rare.\nMEDIA:relative\n```\nMEDIA:/kept.png\n```\n' +
      'M\nME\nMEDIA\nlast words MEDIA:/not/a/line.png\nMEDIA:/tmp/three.pdf';
    for (const step of [1, 2, 3, 5, 7]) {
      let shown = '';
      for (let end = 0; end <= full.length; end += step) {
        const next = visibleStreamingText({ text: full.slice(0, Math.min(end, full.length)) });
        assert.ok(next.startsWith(shown), `shrank at ${end} (step ${step}): ${JSON.stringify(shown)} -> ${JSON.stringify(next)}`);
        assert.ok(!next.includes('MEDIA:/tmp/') && !next.includes('MEDIA: /tmp/'), `MEDIA line shown: ${JSON.stringify(next)}`);
        shown = next;
      }
      assert.ok(extractMedia({ text: full }).text.startsWith(shown));
    }
  });
});
