import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { dm, owner, telegramHarness } from '../helpers/telegram-harness.js';

/** The workspace's own git repository, as `git` sees it: every ref, the status, and the index file's bytes. */
function ownRepo(workspace: string): string {
  // --no-optional-locks: status must not refresh (rewrite) the index it is checking.
  const git = (...args: string[]): string => execFileSync('git', ['--no-optional-locks', '-C', workspace, ...args], { encoding: 'utf8' });
  return [git('show-ref'), git('status', '--porcelain'), git('stash', 'list'), readFileSync(path.join(workspace, '.git', 'index')).toString('base64')].join('\n--\n');
}

test('write_file over an existing file, then /rollback 1 restores the old content and removes a file made since; /rollback diff shows the change; the workspace\'s own git repo is untouched', { timeout: 60_000 }, async () => {
  const { h, fake } = await telegramHarness({ config: { skills: { review: false }, memory: { review_interval: 1000 } } });
  try {
    const ws = h.profile.workspaceDir;
    const git = (...args: string[]): string => execFileSync('git', ['-C', ws, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });
    writeFileSync(path.join(ws, 'plan.md'), 'the old plan\n');
    git('init', '--quiet');
    git('add', 'plan.md');
    git('commit', '--quiet', '-m', 'mine');
    const before = ownRepo(ws);

    h.fake.setResponder((request) => {
      const last = (request.body.messages ?? []).at(-1);
      if (last?.['role'] === 'tool') return { text: 'Rewritten.' };
      return { toolCalls: [{ name: 'write_file', arguments: { path: 'plan.md', content: 'the new plan\n' } }, { name: 'write_file', arguments: { path: 'extra.md', content: 'new file\n' } }] };
    });
    fake.pushMessage({ chat: dm, from: owner, text: 'rewrite the plan' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown.startsWith('Rewritten.')), timeoutMs: 20_000 });
    await h.runner.waitIdle();
    assert.equal(readFileSync(path.join(ws, 'plan.md'), 'utf8'), 'the new plan\n');

    const shown = (prefix: string): Promise<string> =>
      fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown.startsWith(prefix)), timeoutMs: 20_000 }).then(() => fake.chatMessages(dm.id).filter((m) => m.shown.startsWith(prefix)).at(-1)?.shown ?? '');
    fake.pushMessage({ chat: dm, from: owner, text: '/rollback' });
    const list = await shown('Checkpoints of the workspace');
    assert.match(list, /^Checkpoints of the workspace, newest first:\n1\. \d{4}-\d\d-\d\d \d\d:\d\d before write_file plan\.md\n/);
    assert.doesNotMatch(list, /\n2\. /, 'one checkpoint: both writes are in one folder and one turn');

    fake.pushMessage({ chat: dm, from: owner, text: '/rollback diff 1' });
    const diff = await shown('Changes since checkpoint 1');
    assert.match(diff, /-the old plan\n\+the new plan/);
    assert.match(diff, /extra\.md/);

    fake.pushMessage({ chat: dm, from: owner, text: '/rollback 1' });
    const restored = await shown('Restored the workspace');
    assert.match(restored, /^Restored the workspace to checkpoint 1 \(.+, before write_file plan\.md\): 1 file put back, 1 made since removed\./);
    assert.equal(readFileSync(path.join(ws, 'plan.md'), 'utf8'), 'the old plan\n');
    assert.equal(existsSync(path.join(ws, 'extra.md')), false);
    assert.equal(ownRepo(ws), before, "the workspace's own repository is as it was");
    // The checkpoints live in the profile, not in the workspace.
    assert.ok(readdirSync(path.join(h.profile.dir, 'checkpoints'), { recursive: true }).some((name) => String(name).endsWith('workspace.git')));

    // The state before the rollback is checkpoint 1 now: rolling back again brings the new plan back.
    fake.pushMessage({ chat: dm, from: owner, text: '/rollback 1' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).filter((m) => m.shown.startsWith('Restored the workspace')).length === 2, timeoutMs: 20_000 });
    assert.equal(readFileSync(path.join(ws, 'plan.md'), 'utf8'), 'the new plan\n');
    assert.equal(readFileSync(path.join(ws, 'extra.md'), 'utf8'), 'new file\n');
  } finally {
    await h.stop();
    await fake.close();
  }
});
