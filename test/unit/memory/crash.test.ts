import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { TEMP_PREFIX } from '../../../src/util/atomic-write.js';
import { LOCK_FILE_NAME, MemoryFiles } from '../../../src/memory/files.js';
import { parseEntries, serializeEntries } from '../../../src/memory/format.js';
import { systemClock } from '../../../src/core/clock.js';
import { nodeArgsFor } from '../../helpers/entry.js';
import { generationOf, generationText } from '../../helpers/memory-generations.js';

const ANCHOR = 'anchor: this entry is never touched';

/** Starts a writer child; `wrote` is the last generation it reported as saved. */
function startWriter(params: { dir: string }): { child: ChildProcess; wrote: () => number; firstWrite: Promise<void>; exited: Promise<void> } {
  const child = spawn(process.execPath, [...nodeArgsFor('test/helpers/memory-writer.ts'), 'rounds', params.dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  let wrote = -1;
  let buffer = '';
  let resolveFirst!: () => void;
  const firstWrite = new Promise<void>((resolve) => (resolveFirst = resolve));
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    for (const line of lines) {
      const match = /^wrote (\d+)$/.exec(line);
      if (match) {
        wrote = Number(match[1]);
        resolveFirst();
      }
    }
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return { child, wrote: () => wrote, firstWrite, exited };
}

/** Resolves as soon as a writer's temp file exists in `dir` (or after `timeoutMs`). */
async function tempFileSeen(params: { dir: string; timeoutMs: number }): Promise<void> {
  const until = Date.now() + params.timeoutMs;
  while (Date.now() < until && !readdirSync(params.dir).some((name) => name.startsWith(TEMP_PREFIX))) await new Promise((resolve) => setImmediate(resolve));
}

test('kill -9 of a writer at random points always leaves a readable MEMORY.md holding the old or the new content', { timeout: 120_000 }, async (t) => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-memory-crash-'));
  try {
    const file = path.join(dir, 'MEMORY.md');
    writeFileSync(file, serializeEntries({ entries: [ANCHOR, generationText({ generation: 0 })] }));
    let last = 0;
    let torn = 0;
    for (let round = 1; round <= 8; round++) {
      const writer = startWriter({ dir });
      await writer.firstWrite;
      if (round % 2 === 1) await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 60)));
      else await tempFileSeen({ dir, timeoutMs: 3_000 }); // the writer is between creating its temp file and the rename
      writer.child.kill('SIGKILL');
      await writer.exited;
      const confirmed = writer.wrote();
      if (readdirSync(dir).some((name) => name.startsWith(TEMP_PREFIX))) torn++;
      const entries = parseEntries({ text: readFileSync(file, 'utf8') });
      assert.equal(entries.length, 2, `round ${round}: MEMORY.md does not hold its two entries`);
      assert.equal(entries[0], ANCHOR, `round ${round}: the untouched entry changed`);
      const generation = generationOf({ entry: entries[1] ?? '' });
      assert.ok(generation !== undefined, `round ${round}: the generation entry is torn`);
      assert.ok(generation === confirmed || generation === confirmed + 1, `round ${round}: file has generation ${generation}, the writer had saved ${confirmed}`);
      assert.ok(generation > last, `round ${round}: no progress (the previous writer's stale lock was not taken over?)`);
      last = generation;
    }
    // The dead writer's lock (if it held one) is taken over at once, and its temp files are cleaned up.
    const files = new MemoryFiles({
      memoriesDir: dir,
      settings: { memoryEnabled: true, userEnabled: true, memoryCharLimit: 10_000_000, userCharLimit: 10_000_000 },
      containsSecret: () => false,
      clock: systemClock,
      lock: { waitMs: 2_000 },
    });
    await files.write({ action: 'add', target: 'memory', content: 'after the crashes', signal: new AbortController().signal });
    assert.deepEqual(readdirSync(dir).filter((name) => name.startsWith(TEMP_PREFIX)), []);
    assert.equal(existsSync(path.join(dir, LOCK_FILE_NAME)), false);
    assert.equal(files.read({ target: 'memory' }).entries.at(-1), 'after the crashes');
    t.diagnostic(`kills that left a temp file behind: ${torn}/8`);
    assert.ok(torn > 0, 'no kill landed in the middle of a write');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
