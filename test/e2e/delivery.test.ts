import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { startHarness } from '../helpers/harness.js';

test('MEDIA: lines become attachments; a missing file is reported in the reply', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-media-'));
  const picture = path.join(dir, 'chart.png');
  writeFileSync(picture, Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const h = await startHarness();
  try {
    h.fake.enqueue({ text: `Here is the chart.\nMEDIA:${picture}\nMEDIA:${path.join(dir, 'gone.pdf')}\n` });
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
