import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { FileMemo } from '../../../src/util/file-memo.js';

test('FileMemo derives once per version of a file: again after a write (even of the same size), never for a missing file', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-file-memo-'));
  try {
    const file = path.join(dir, 'SOUL.md');
    const memo = new FileMemo<string>();
    let derived = 0;
    const derive = (text: string): string => {
      derived++;
      return text.toUpperCase();
    };
    assert.equal(memo.read({ file, derive }), undefined);
    writeFileSync(file, 'first');
    assert.equal(memo.read({ file, derive }), 'FIRST');
    assert.equal(memo.read({ file, derive }), 'FIRST');
    assert.equal(derived, 1, 'an unchanged file was read and derived again');
    writeFileSync(file, 'other');
    assert.equal(memo.read({ file, derive }), 'OTHER', 'a same-size write was not seen');
    assert.equal(derived, 2);
    rmSync(file);
    assert.equal(memo.read({ file, derive }), undefined);
    writeFileSync(file, 'back again');
    assert.equal(memo.read({ file, derive }), 'BACK AGAIN');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
