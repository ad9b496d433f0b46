import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { documentKind, documentText } from '../../../src/media/documents.js';
import { minimalPdf } from '../../helpers/pdf.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-documents-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a PDF gives its text page by page with its page count; past the cap it stops, saying how many pages it read', async () => {
  const file = path.join(dir, 'report.pdf');
  writeFileSync(file, minimalPdf({ pages: [['Quarterly report', 'Revenue grew by 12 percent.'], ['Costs (in EUR) fell.'], ['Outlook: steady.']] }));
  const whole = await documentText({ path: file, mimeType: 'application/pdf', maxChars: 10_000 });
  assert.deepEqual(whole, { kind: 'pdf', pages: 3, pagesRead: 3, text: 'Quarterly report\nRevenue grew by 12 percent.\n\nCosts (in EUR) fell.\n\nOutlook: steady.', truncated: false });
  const long = path.join(dir, 'long.pdf');
  writeFileSync(long, minimalPdf({ pages: Array.from({ length: 30 }, (_, i) => Array.from({ length: 40 }, (__, j) => `Page ${i + 1} line ${j + 1} of the annual accounts.`)) }));
  const cut = await documentText({ path: long, fileName: 'long.pdf', maxChars: 3000 });
  assert.equal(cut?.kind, 'pdf');
  assert.equal(cut?.pages, 30);
  assert.equal(cut?.truncated, true);
  assert.ok((cut?.pagesRead ?? 0) < 30 && (cut?.text.length ?? 0) <= 3000, `${cut?.pagesRead} pages, ${cut?.text.length} characters`);
  assert.match(cut?.text ?? '', /^Page 1 line 1 of the annual accounts\./);
});

test('text files are read by MIME type or name, cut at the cap; binary files and other kinds are not documents', async () => {
  const notes = path.join(dir, 'notes.bin');
  writeFileSync(notes, 'Buy milk.\nCall Ana about the café.\n');
  assert.deepEqual(await documentText({ path: notes, fileName: 'notes.md', mimeType: 'application/octet-stream', maxChars: 1000 }), { kind: 'text', text: 'Buy milk.\nCall Ana about the café.\n', truncated: false });
  const big = path.join(dir, 'big.csv');
  writeFileSync(big, 'a,b\n'.repeat(10_000));
  const cut = await documentText({ path: big, mimeType: 'text/csv', maxChars: 1000 });
  assert.equal(cut?.text.length, 1000);
  assert.equal(cut?.truncated, true);
  const binary = path.join(dir, 'data.txt');
  writeFileSync(binary, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]));
  assert.equal(await documentText({ path: binary, maxChars: 1000 }), undefined);
  assert.equal(documentKind({ path: '/x/photo.jpg', mimeType: 'image/jpeg' }), undefined);
  assert.equal(documentKind({ path: '/x/voice.ogg', mimeType: 'audio/ogg' }), undefined);
  assert.equal(documentKind({ path: '/x/file', mimeType: 'application/json' }), 'text');
});
