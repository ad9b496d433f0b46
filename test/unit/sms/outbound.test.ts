import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { composeBody, sortAttachments } from '../../../adapters/sms/outbound.js';

describe('sortAttachments', () => {
  test('JPEG/PNG/GIF pictures within the size limit go by MMS; anything else becomes a note', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
    try {
      const files = { png: path.join(dir, 'chart.png'), big: path.join(dir, 'huge.jpg'), pdf: path.join(dir, 'report.pdf'), webp: path.join(dir, 'pic.webp') };
      writeFileSync(files.png, 'png');
      writeFileSync(files.big, Buffer.alloc(2048));
      writeFileSync(files.pdf, 'pdf');
      writeFileSync(files.webp, 'webp');
      const sorted = await sortAttachments({
        attachments: [
          { path: files.png, kind: 'image' },
          { path: files.big, kind: 'image' },
          { path: files.pdf, kind: 'document' },
          { path: files.webp, kind: 'image' },
          { path: path.join(dir, 'gone.png'), kind: 'image' },
        ],
        maxBytes: 1024,
      });
      assert.deepEqual(sorted.pictures, [{ file: files.png, contentType: 'image/png' }]);
      assert.equal(sorted.notes.length, 4);
      assert.match(sorted.notes[0] ?? '', /^\(attachment huge\.jpg could not be sent by SMS: it is over the/);
      assert.match(sorted.notes[1] ?? '', /^\(attachment report\.pdf could not be sent by SMS: only JPEG, PNG and GIF/);
      assert.match(sorted.notes[2] ?? '', /pic\.webp/);
      assert.match(sorted.notes[3] ?? '', /gone\.png could not be sent by SMS: the file cannot be read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('composeBody', () => {
  test('notes follow the text, or go in a message of their own when they do not fit', () => {
    assert.deepEqual(composeBody({ text: 'Hi', notes: [], limit: 1600 }), { body: 'Hi', overflow: '' });
    assert.deepEqual(composeBody({ text: 'Hi', notes: ['(a)', '(b)'], limit: 1600 }), { body: 'Hi\n\n(a)\n(b)', overflow: '' });
    assert.deepEqual(composeBody({ text: '', notes: ['(a)'], limit: 1600 }), { body: '(a)', overflow: '' });
    const long = 'x'.repeat(1598);
    assert.deepEqual(composeBody({ text: long, notes: ['(a)'], limit: 1600 }), { body: long, overflow: '(a)' });
  });
});
