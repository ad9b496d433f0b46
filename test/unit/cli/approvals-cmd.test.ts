import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import type { Store } from '../../../src/store/types.js';
import { cli, withProfileStore } from '../../helpers/cli.js';

const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-approvals-cli-'));
after(() => rmSync(home, { recursive: true, force: true }));
const env = { HERMES_HOME: home, HOME: home };

/** Runs `use` on a profile's own state.db, as its gateway would. */
function withStore<T>(profile: string, use: (store: Store) => T): T {
  return withProfileStore({ home, profile }, use);
}

test('hermes approvals list shows the -p profile’s always rules; revoke removes one, refuses an unknown id; other profiles untouched', async () => {
  withStore('work', (s) => {
    s.addApprovalRule({ patternId: 'recursive-delete', description: 'recursive delete (rm -r)', example: 'rm -rf build' });
    s.addApprovalRule({ patternId: 'git-force-push', description: 'git push --force', example: 'git push -f origin main' });
  });
  withStore('default', () => undefined);
  const listed = await cli({ argv: ['-p', 'work', 'approvals', 'list'], env });
  assert.equal(listed.code, 0, listed.stderr);
  // One block per rule (oldest first; these two were made in the same millisecond).
  const blocks = listed.stdout.trimEnd().split(/\n(?=\S)/).sort();
  assert.equal(blocks.length, 2, listed.stdout);
  assert.match(blocks[0] ?? '', /^git-force-push — git push --force\n  example: git push -f origin main\n  since: \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  assert.match(blocks[1] ?? '', /^recursive-delete — recursive delete \(rm -r\)\n  example: rm -rf build\n  since: \d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
  const empty = await cli({ argv: ['approvals', 'list'], env });
  assert.equal(empty.code, 0);
  assert.match(empty.stdout, /^No always-allow rules: every dangerous command asks the owner/);

  const unknown = await cli({ argv: ['-p', 'work', 'approvals', 'revoke', 'fork-bomb'], env });
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /^error: no always-allow rule for "fork-bomb" \(rules: (recursive-delete, git-force-push|git-force-push, recursive-delete)\)\n$/);
  const revoked = await cli({ argv: ['-p', 'work', 'approvals', 'revoke', 'recursive-delete'], env });
  assert.equal(revoked.code, 0, revoked.stderr);
  assert.equal(revoked.stdout, 'Removed the always-allow rule for recursive-delete: such commands ask the owner again.\n');
  assert.deepEqual(withStore('work', (s) => s.approvalRules().map((r) => r.patternId)), ['git-force-push']);

  const missing = await cli({ argv: ['-p', 'nobody', 'approvals', 'list'], env });
  assert.equal(missing.code, 66);
});

test('hermes approvals on a profile whose gateway never ran says what to do', async () => {
  const dir = path.join(home, 'profiles', 'fresh');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'config.yaml'), 'model:\n  base_url: http://127.0.0.1:9/v1\n  name: m\n  api_key: sk-x\n');
  const result = await cli({ argv: ['-p', 'fresh', 'approvals', 'list'], env });
  assert.notEqual(result.code, 0);
  assert.match(result.stderr, /profile "fresh" has no approval rules yet/);
  assert.match(result.stderr, /hermes -p fresh gateway run/);
});
