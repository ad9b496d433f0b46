import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { startHarness } from '../helpers/harness.js';

test('MEDIA: lines become attachments; a missing file is reported in the reply', async () => {
  const h = await startHarness();
  try {
    const picture = path.join(h.profile.workspaceDir, 'chart.png');
    writeFileSync(picture, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    h.fake.enqueue({ text: `Here is the chart.\nMEDIA:${picture}\nMEDIA:${path.join(h.profile.workspaceDir, 'gone.pdf')}\n` });
    await h.adapter.inject({ text: 'chart please' });
    await h.runner.waitIdle();
    const shown = h.adapter.shown();
    const text = shown[0]?.text ?? '';
    assert.match(text, /^Here is the chart\./);
    assert.doesNotMatch(text, /MEDIA:/);
    assert.match(text, /gone\.pdf/);
    assert.match(text, /not found/);
    const withFiles = shown.filter((m) => m.attachments.length > 0);
    assert.deepEqual(withFiles.map((m) => m.attachments), [[picture]]);
  } finally {
    await h.stop();
  }
});

test("MEDIA: never sends the profile's secrets or files outside the workspace; secrets in text are redacted", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-outside-'));
  const outside = path.join(dir, 'private.txt');
  writeFileSync(outside, 'not for chat');
  const h = await startHarness();
  try {
    writeFileSync(h.profile.envPath, 'SOME_TOKEN=zzz-secret-value\n');
    const sneaky = path.join(h.profile.workspaceDir, 'link-to-config');
    symlinkSync(h.profile.configPath, sneaky);
    h.fake.enqueue({
      text: `Files:\nMEDIA:${h.profile.envPath}\nMEDIA:${h.profile.dbPath}\nMEDIA:${outside}\nMEDIA:${sneaky}\nThe key is sk-test-harness.`,
    });
    await h.adapter.inject({ text: 'send me your secrets' });
    await h.runner.waitIdle();
    const shown = h.adapter.shown();
    assert.equal(shown.filter((m) => m.attachments.length > 0).length, 0, 'no file may be attached');
    const text = shown.map((m) => m.text).join('\n');
    assert.equal((text.match(/Could not attach/g) ?? []).length, 4);
    assert.match(text, /private files/);
    assert.match(text, /outside the workspace/);
    assert.match(text, /The key is \*\*\*\./);
    assert.ok(!text.includes('sk-test-harness'));
  } finally {
    await h.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a 429 storm while streaming: waits out retry_after, no duplicate and no truncated final message', async () => {
  const h = await startHarness({ config: { stream: { edit_interval: '250ms' } } });
  try {
    for (const op of [2, 3, 5]) h.adapter.rateLimitOn.set(op, 400);
    const text = Array.from({ length: 60 }, (_, i) => `token${i}`).join(' ');
    h.fake.enqueue({ chunks: text.split(/(?<= )/), chunkDelayMs: 40 });
    await h.adapter.inject({ text: 'stream while limited' });
    await h.runner.waitIdle();
    const shown = h.adapter.shown();
    assert.equal(shown.length, 1, 'a rate-limited edit must never become a new message');
    assert.equal(shown[0]?.text, text);
    assert.equal(h.adapter.refused.length, 3);
    const ops = h.adapter.calls.filter((c) => c.kind !== 'typing');
    for (const refusal of h.adapter.refused) {
      const next = ops.find((o) => o.at >= refusal.at);
      assert.ok(next, 'no call after a refusal');
      assert.ok(next.at - refusal.at >= refusal.retryAfterMs, `called again ${next.at - refusal.at} ms after a ${refusal.retryAfterMs} ms retry_after`);
    }
  } finally {
    await h.stop();
  }
});

test('a 10,000-character answer with a code fence arrives as valid chunks under the limit', async () => {
  const h = await startHarness({ capabilities: { maxMessageLength: 4096 }, config: { stream: { edit_interval: '250ms' } } });
  try {
    const prose = (n: number): string => Array.from({ length: n }, (_, i) => `Sentence number ${i} is here.`).join(' ');
    const code = Array.from({ length: 150 }, (_, i) => `const v${i} = compute(${i}); // line ${i}`).join('\n');
    const answer = `${prose(80)}\n\n\`\`\`ts\n${code}\n\`\`\`\n\n${prose(90)} 👍🏽 done.`;
    assert.ok(answer.length > 10_000);
    h.fake.enqueue({ text: answer });
    await h.adapter.inject({ text: 'long one' });
    await h.runner.waitIdle();
    const shown = h.adapter.shown();
    assert.ok(shown.length >= 3, `expected several messages, got ${shown.length}`);
    for (const m of shown) {
      assert.ok(m.text.length <= 4096, `a chunk has ${m.text.length} characters`);
      const fences = m.text.split('\n').filter((l) => l.trimStart().startsWith('```')).length;
      assert.equal(fences % 2, 0, `unbalanced fences in a chunk: ${m.text.slice(0, 80)}…`);
      assert.ok(!/[\uD800-\uDBFF]$/.test(m.text) && !/^[\uDC00-\uDFFF]/.test(m.text), 'a surrogate pair was cut');
    }
    const joined = shown.map((m) => m.text).join('');
    for (let i = 0; i < 150; i++) assert.ok(joined.includes(`const v${i} = compute(${i});`), `code line ${i} lost`);
    assert.ok(joined.includes('👍🏽 done.'));
  } finally {
    await h.stop();
  }
});

test('a platform that is down when the reply finishes gets it once it is back; the turn is not marked done before', async () => {
  const h = await startHarness({ config: { stream: { edit_interval: '250ms' } } });
  try {
    const text = Array.from({ length: 20 }, (_, i) => `part${i}`).join(' ');
    h.fake.enqueue({ chunks: text.split(/(?<= )/), chunkDelayMs: 40 });
    await h.adapter.inject({ text: 'hello' });
    await h.adapter.waitFor({ predicate: () => h.adapter.shown().length === 1, what: 'streaming started' });
    h.adapter.down = new Error('502 Bad Gateway');
    await h.fake.waitForRequests(1);
    await new Promise((r) => setTimeout(r, 1500));
    const store = h.readStore();
    try {
      assert.equal(store.pendingInbound().length, 1, 'not done while the reply is not delivered');
    } finally {
      store.close();
    }
    h.adapter.down = null;
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown().length, 1);
    assert.equal(h.adapter.shown()[0]?.text, text);
    const after = h.readStore();
    try {
      assert.equal(after.pendingInbound().length, 0);
    } finally {
      after.close();
    }
  } finally {
    await h.stop();
  }
});
