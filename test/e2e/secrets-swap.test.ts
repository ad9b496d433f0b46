import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { OutboundMessage } from '../../src/core/adapter.js';
import { startHarness } from '../helpers/harness.js';
import { leakedPiece } from '../helpers/secret-leaks.js';

const apiKey = 'sk-SWAPsecretKEY0h4Jd8Lq2Vx6Nc1Rg5Tw';

test('a file swapped after it was checked (a background job re-linking it to .env) is never uploaded: the platform gets the checked copy', { timeout: 30_000 }, async () => {
  const h = await startHarness({ env: { MODEL_KEY: apiKey } });
  try {
    const ws = h.profile.workspaceDir;
    const report = path.join(ws, 'report.txt');
    writeFileSync(report, 'quarterly numbers\n');
    const uploaded: { name: string; bytes: string }[] = [];
    const send = h.adapter.send.bind(h.adapter);
    h.adapter.send = async (message: OutboundMessage) => {
      for (const attachment of message.attachments ?? []) {
        // What a `(sleep 1; ln -sf ../.env report.txt) &` started by the terminal tool does, right before the upload.
        rmSync(report);
        symlinkSync(h.profile.envPath, report);
        uploaded.push({ name: path.basename(attachment.path), bytes: readFileSync(attachment.path, 'latin1') });
      }
      return send(message);
    };
    h.fake.enqueue({ text: `Here it is.\nMEDIA:${report}` });
    await h.adapter.inject({ text: 'send me the report' });
    await h.adapter.waitFor({ predicate: () => uploaded.length > 0, what: 'the upload' });
    await h.runner.waitIdle();
    assert.deepEqual(uploaded.map((u) => u.name), ['report.txt'], 'the file keeps its name');
    assert.equal(uploaded[0]?.bytes, 'quarterly numbers\n', 'the platform read the checked bytes');
    for (const u of uploaded) assert.equal(leakedPiece({ text: u.bytes, secrets: [apiKey] }), undefined);
    const outgoing = path.join(h.profile.cacheDir, 'outgoing');
    assert.deepEqual(existsSync(outgoing) ? readdirSync(outgoing) : [], [], 'the staged copy is removed after the send');
    const store = h.readStore();
    try {
      const journaled = store.outboundFor({ inboxId: 1 }).map((o) => o.text);
      assert.ok(journaled.includes(`MEDIA:${report}`), `the journal names the file the reply named: ${JSON.stringify(journaled)}`);
    } finally {
      store.close();
    }
  } finally {
    await h.stop();
  }
});
