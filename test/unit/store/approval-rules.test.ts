import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { openStore } from '../../../src/store/sqlite-store.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeTempDir } from './fixtures.js';

test('approval rules: added once per pattern (a second add refreshes it), listed oldest first, kept across reopen, removed', async () => {
  const { dir, cleanup } = makeTempDir();
  const file = path.join(dir, 'state.db');
  const clock = new FakeClock(Date.parse('2026-12-01T10:00:00Z'));
  let store = openStore({ path: file, clock });
  try {
    const first = store.addApprovalRule({ patternId: 'recursive-delete', description: 'recursive delete', example: 'rm -rf build' });
    assert.equal(first.createdAt, clock.now());
    await clock.advance(1_000);
    store.addApprovalRule({ patternId: 'git-force-push', description: 'force push', example: 'git push --force' });
    await clock.advance(1_000);
    const again = store.addApprovalRule({ patternId: 'recursive-delete', description: 'recursive delete (rm -r)', example: 'rm -r dist' });
    assert.equal(again.createdAt, first.createdAt, 'the rule keeps its age');
    assert.equal(again.example, 'rm -r dist');
    store.close();
    store = openStore({ path: file, clock });
    assert.deepEqual(store.approvalRules().map((rule) => rule.patternId), ['recursive-delete', 'git-force-push']);
    assert.equal(store.removeApprovalRule({ patternId: 'recursive-delete' }), true);
    assert.equal(store.removeApprovalRule({ patternId: 'recursive-delete' }), false);
    assert.deepEqual(store.approvalRules().map((rule) => rule.patternId), ['git-force-push']);
  } finally {
    store.close();
    cleanup();
  }
});
