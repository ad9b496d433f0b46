import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { LOCK_FILE_NAME, MemoryFiles } from '../../../src/memory/files.js';
import { nodeArgsFor } from '../../helpers/entry.js';
import { systemClock } from '../../../src/core/clock.js';

const settings = { memoryEnabled: true, userEnabled: true, memoryCharLimit: 100_000, userCharLimit: 100_000 };

/** A child that adds TAG-1 … TAG-N once told to go: `ready` resolves when it waits, `go` starts it, `exit` gives its code. */
function addsChild(params: { dir: string; tag: string; count: number }): { ready: Promise<void>; go: () => void; exit: Promise<number | null> } {
  const child = spawn(process.execPath, [...nodeArgsFor('test/helpers/memory-writer.ts'), 'adds', params.dir, params.tag, String(params.count)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const ready = new Promise<void>((resolve) => child.stdout?.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && resolve()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { ready, go: () => child.stdin?.end('go\n'), exit };
}

test('two processes and concurrent writes in this one, all adding to MEMORY.md after a dead writer\'s lock, lose no entry', { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-memory-concurrent-'));
  try {
    const count = 40;
    const files = new MemoryFiles({ memoriesDir: dir, settings, containsSecret: () => false, clock: systemClock, lock: { waitMs: 60_000 } });
    // A second instance in this process (another session's capability) shares nothing with the first but the lock file.
    const other = new MemoryFiles({ memoriesDir: dir, settings, containsSecret: () => false, clock: systemClock, lock: { waitMs: 60_000 } });
    const signal = new AbortController().signal;
    const children = [addsChild({ dir, tag: 'A', count }), addsChild({ dir, tag: 'B', count })];
    await Promise.all(children.map((child) => child.ready));
    // A lock left by a killed writer: all three race to take it over, and still only one writes at a time.
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(path.join(dir, LOCK_FILE_NAME), JSON.stringify({ pid: dead, token: 'killed', at: Date.now() }));
    for (const child of children) child.go();
    const local = Array.from({ length: count }, (_, i) => (i % 2 === 0 ? files : other).write({ action: 'add', target: 'memory', content: `C-${i + 1}`, signal }));
    await Promise.all(local);
    assert.deepEqual(await Promise.all(children.map((child) => child.exit)), [0, 0]);
    const entries = new Set(files.read({ target: 'memory' }).entries);
    const expected = ['A', 'B', 'C'].flatMap((tag) => Array.from({ length: count }, (_, i) => `${tag}-${i + 1}`));
    const missing = expected.filter((entry) => !entries.has(entry));
    assert.deepEqual(missing, [], 'entries were lost');
    assert.equal(entries.size, expected.length);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('in-process writes run one at a time, in call order', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-memory-order-'));
  try {
    const files = new MemoryFiles({ memoriesDir: dir, settings, containsSecret: () => false, clock: systemClock });
    const signal = new AbortController().signal;
    await Promise.all(Array.from({ length: 20 }, (_, i) => files.write({ action: 'add', target: 'user', content: `fact ${i}`, signal })));
    assert.deepEqual(files.read({ target: 'user' }).entries, Array.from({ length: 20 }, (_, i) => `fact ${i}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
