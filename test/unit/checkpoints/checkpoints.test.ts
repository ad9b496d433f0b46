import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import pino from 'pino';
import { Checkpoints } from '../../../src/checkpoints/checkpoints.js';
import { changesFiles } from '../../../src/tools/builtin/terminal.js';
import { FakeClock } from '../../helpers/fake-clock.js';

test('changesFiles: deleting, moving, in-place edits, redirects over files and git resets take a checkpoint; reads and appends do not', () => {
  const yes = ['rm -rf build', 'ls && rm a', 'mv a b', 'sed -i s/a/b/ f', 'echo hi > notes.md', 'cat a >b', 'git reset --hard', 'git -C x checkout main', 'find . -name "*.o" -delete', 'sudo rm x', 'xargs rm', 'truncate -s0 f'];
  const no = ['ls -la', 'echo hi >> log', 'make 2>&1', 'cmd > /dev/null', 'grep rm file', 'git status', 'cat a | wc -l', 'npm test', 'firm x', 'ls 2>/dev/null'];
  assert.deepEqual(yes.filter((command) => !changesFiles({ command })), []);
  assert.deepEqual(no.filter((command) => changesFiles({ command })), []);
});

test('checkpoints: an unchanged workspace takes none; the count and age limits prune the oldest; a turn snapshots a folder once', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'hermes-checkpoints-'));
  const workspace = path.join(root, 'ws');
  mkdirSync(workspace);
  const clock = new FakeClock(Date.UTC(2026, 11, 1));
  const checkpoints = new Checkpoints({ dir: path.join(root, 'cp.git'), workspace, settings: { maxCount: 2, maxAgeMs: 3_600_000, maxBytes: 50 * 1024 * 1024 }, clock, logger: pino({ level: 'silent' }) });
  try {
    const write = async (text: string): Promise<void> => {
      writeFileSync(path.join(workspace, 'a.txt'), text);
      await clock.advance(1000);
    };
    await write('one');
    await checkpoints.take({ reason: 'first' });
    await checkpoints.take({ reason: 'nothing changed' });
    assert.deepEqual((await checkpoints.list()).map((c) => c.reason), ['first']);
    await write('two');
    await checkpoints.take({ reason: 'second' });
    await write('three');
    await checkpoints.take({ reason: 'third' });
    assert.deepEqual((await checkpoints.list()).map((c) => c.reason), ['third', 'second'], 'max_count 2');
    await clock.advance(2 * 3_600_000);
    await write('four');
    await checkpoints.take({ reason: 'fourth' });
    assert.deepEqual((await checkpoints.list()).map((c) => c.reason), ['fourth'], 'older than max_age');

    const turn = checkpoints.forTurn();
    await write('five');
    await Promise.all([turn.before({ path: path.join(workspace, 'a.txt'), reason: 'write a' }), turn.before({ path: path.join(workspace, 'b.txt'), reason: 'write b' })]);
    await write('six');
    await turn.before({ path: path.join(workspace, 'a.txt'), reason: 'write a again' });
    assert.deepEqual((await checkpoints.list()).map((c) => c.reason), ['write a', 'fourth'], 'one snapshot per folder per turn');
    const restored = await checkpoints.restore({ number: 1 });
    assert.deepEqual([restored.restored, restored.removed], [1, 0]);
    assert.equal(readFileSync(path.join(workspace, 'a.txt'), 'utf8'), 'five');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('checkpoints: a project with its own git repository inside the workspace is snapshotted from its own folder, listed and restored with the rest', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'hermes-checkpoints-'));
  const workspace = path.join(root, 'ws');
  const project = path.join(workspace, 'code', 'app');
  mkdirSync(path.join(project, '.git'), { recursive: true });
  mkdirSync(path.join(project, 'src'));
  writeFileSync(path.join(project, 'src', 'main.c'), 'int main() { return 0; }\n');
  writeFileSync(path.join(workspace, 'notes.md'), 'notes\n');
  const clock = new FakeClock(Date.UTC(2026, 11, 1));
  const checkpoints = new Checkpoints({ dir: path.join(root, 'cp'), workspace, settings: { maxCount: 10, maxAgeMs: 3_600_000, maxBytes: 50 * 1024 * 1024 }, clock, logger: pino({ level: 'silent' }) });
  try {
    const turn = checkpoints.forTurn();
    await turn.before({ path: path.join(project, 'src', 'main.c'), reason: 'patch main.c' });
    writeFileSync(path.join(project, 'src', 'main.c'), 'int main() { return 1; }\n');
    await clock.advance(1000);
    await turn.before({ path: path.join(workspace, 'notes.md'), reason: 'write_file notes.md' });
    const listed = await checkpoints.list();
    assert.deepEqual(listed.map((c) => [c.number, c.reason, checkpoints.relativeRoot({ checkpoint: c })]), [[1, 'write_file notes.md', ''], [2, 'patch main.c', path.join('code', 'app')]]);
    const restored = await checkpoints.restore({ number: 2 });
    assert.equal(restored.restored, 1);
    assert.equal(readFileSync(path.join(project, 'src', 'main.c'), 'utf8'), 'int main() { return 0; }\n');
    assert.equal(readFileSync(path.join(workspace, 'notes.md'), 'utf8'), 'notes\n');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
