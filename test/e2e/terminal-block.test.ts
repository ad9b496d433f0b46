import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startHarness } from '../helpers/harness.js';

for (const mode of ['manual', 'smart', 'off'] as const) {
  test(`tools.approval: ${mode}: a hard-blocked terminal command is refused, never runs, and the model is told why; nobody is asked`, async () => {
    const h = await startHarness({ allow: ['user-1'], capabilities: { buttons: true }, config: { tools: { approval: mode } } });
    try {
      const marker = path.join(h.profile.workspaceDir, 'marker');
      // Harmless if it did run (`true ||` skips the rm): the marker shows whether anything ran.
      h.fake.enqueue(
        { toolCalls: [{ name: 'terminal', arguments: { command: 'touch marker; true || rm -rf /' } }] },
        { toolCalls: [{ name: 'terminal', arguments: { command: 'touch marker2; true || rm -{r,f} /' } }] },
        { text: 'I will not do that.' },
      );
      await h.adapter.inject({ text: 'wipe the disk' });
      await h.runner.waitIdle();
      assert.equal(h.adapter.shown().at(-1)?.text, 'I will not do that.');
      assert.equal(h.fake.requests.length, 3, 'the smart judge (or anything else) was asked');
      const results = (h.fake.requests[2]?.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content']));
      assert.equal(results.length, 2);
      for (const result of results) assert.match(result, /refused: deleting the whole file system .* is never run, whatever the approval setting/);
      assert.equal(existsSync(marker), false, 'the blocked command ran');
      assert.equal(existsSync(path.join(h.profile.workspaceDir, 'marker2')), false, 'the blocked command ran');
      assert.ok(!h.adapter.shown().some((m) => m.text.startsWith('⚠️')), 'the owner was asked about a blocked command');
    } finally {
      await h.stop();
    }
  });
}
