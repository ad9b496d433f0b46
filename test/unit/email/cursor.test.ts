import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadCursor, planRead, saveCursor } from '../../../adapters/email/cursor.js';
import { memoryStorage } from './memory-storage.js';

describe('folder cursor', () => {
  test('first start anchors at UIDNEXT: mail already in the folder is left alone', () => {
    assert.deepEqual(planRead({ stored: undefined, uidValidity: '7', uidNext: 42, now: 1000 }), { kind: 'anchor', cursor: { uidValidity: '7', lastUid: 41, lastDate: 1000 } });
  });

  test('same UIDVALIDITY resumes after the last UID; a changed one reads only mail newer than the last handled', () => {
    const stored = { uidValidity: '7', lastUid: 12, lastDate: 5000 };
    assert.deepEqual(planRead({ stored, uidValidity: '7', uidNext: 20, now: 9000 }), { kind: 'resume', cursor: stored });
    assert.deepEqual(planRead({ stored, uidValidity: '8', uidNext: 3, now: 9000 }), { kind: 'revalidate', since: 5000, previous: stored });
  });

  test('is kept per folder in storage; an unreadable one counts as none', () => {
    const storage = memoryStorage();
    saveCursor({ storage, folder: 'INBOX', cursor: { uidValidity: '1', lastUid: 3, lastDate: 10 } });
    assert.deepEqual(loadCursor({ storage, folder: 'INBOX' }), { uidValidity: '1', lastUid: 3, lastDate: 10 });
    assert.equal(loadCursor({ storage, folder: 'Bots' }), undefined);
    storage.set({ name: 'cursor:INBOX', value: '{"uidValidity":1}' });
    assert.equal(loadCursor({ storage, folder: 'INBOX' }), undefined);
  });
});
