import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { openStore } from '../../../src/store/sqlite-store.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { nodeArgsFor } from '../../helpers/entry.js';
import { makeTempDir } from './fixtures.js';

const writer = fileURLToPath(new URL('./durability-writer.ts', import.meta.url));

test('journaled rows survive kill -9 of the writing process', async () => {
  const { dir, cleanup } = makeTempDir();
  try {
    const file = path.join(dir, 'state.db');
    const count = 40;
    const child = spawn(process.execPath, [...nodeArgsFor(writer), file, String(count)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const acked: string[] = [];
    let buffered = '';
    child.stdout.setEncoding('utf8');
    const allAcked = new Promise<void>((resolve, reject) => {
      child.on('exit', (code) => reject(new Error(`writer exited early with code ${code}`)));
      child.stdout.on('data', (chunk: string) => {
        buffered += chunk;
        const lines = buffered.split('\n');
        buffered = lines.pop() ?? '';
        for (const line of lines) if (line.startsWith('acked ')) acked.push(line.slice(6));
        if (acked.length === count) resolve();
      });
    });
    await allAcked;
    const exited = once(child, 'exit');
    child.kill('SIGKILL');
    const [code, signal] = await exited;
    assert.equal(code, null);
    assert.equal(signal, 'SIGKILL');
    assert.ok(fs.statSync(`${file}-wal`).size > 0, 'the rows were only in the WAL when the process died');

    const store = openStore({ path: file, clock: new FakeClock() });
    const pending = store.pendingInbound();
    store.close();
    assert.deepEqual(pending.map((r) => r.messageId), acked);
    assert.deepEqual(
      pending.map((r) => r.state),
      acked.map((_, i) => (i % 2 === 0 ? 'processing' : 'received')),
    );
    assert.equal(pending[7]?.event.text, 'n7');
  } finally {
    cleanup();
  }
});
