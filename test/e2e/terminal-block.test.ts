import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startHarness } from '../helpers/harness.js';

test('a hard-blocked terminal command is refused, never runs, and the model is told why', async () => {
  const h = await startHarness();
  try {
    const marker = path.join(h.profile.workspaceDir, 'marker');
    // Harmless if it did run (`true ||` skips the rm): the marker shows whether anything ran.
    h.fake.enqueue(
      { toolCalls: [{ name: 'terminal', arguments: { command: 'touch marker; true || rm -rf /' } }] },
      { text: 'I will not do that.' },
    );
    await h.adapter.inject({ text: 'wipe the disk' });
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown().at(-1)?.text, 'I will not do that.');
    const result = (h.fake.requests[1]?.body.messages ?? []).find((m) => m['role'] === 'tool');
    assert.match(String(result?.['content']), /refused: deleting the whole file system .* is never run, whatever the approval setting/);
    assert.equal(existsSync(marker), false, 'the blocked command ran');
  } finally {
    await h.stop();
  }
});
