import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { ChatPacer } from '../../../src/gateway/delivery/pacer.js';
import { StreamDelivery } from '../../../src/gateway/delivery/stream.js';
import { mediaPolicy } from '../../../src/gateway/delivery/media-policy.js';
import { ensureProfileDirs } from '../../../src/home/ensure-dirs.js';
import { resolveProfile } from '../../../src/home/profile.js';
import { Redactor } from '../../../src/log/redact.js';
import { scrubStoredMessage } from '../../../src/store/scrub-message.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { leakedPiece } from '../../helpers/secret-leaks.js';
import { MemoryAdapter } from '../delivery/memory-adapter.js';

const secret = 'Qm7vT2xK9pL4wR8nZ3cY6bJ1';
const redactor = new Redactor({ secrets: [secret, 'other-secret-value-42'] });
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hermes-guard-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** Streams `text` in 3-character chunks with an edit after each; returns every text the platform was given. */
async function streamed(params: { text: string; safeLength: boolean }): Promise<{ calls: string[]; final: string }> {
  const clock = new FakeClock();
  const adapter = new MemoryAdapter({ clock });
  const delivery = new StreamDelivery({
    adapter,
    chat: { id: 'c', kind: 'dm' },
    pacer: new ChatPacer({ clock, intervalMs: 1000, maxChats: 2 }),
    chatKey: 'c',
    clock,
    cursor: ' ▉',
    journal: { record: () => undefined },
    scrub: (text) => redactor.scrub(text),
    ...(params.safeLength ? { safeLength: (p: { text: string }) => redactor.safeLength(p) } : {}),
  });
  for (let i = 0; i < params.text.length; i += 3) {
    delivery.push(params.text.slice(i, i + 3));
    await clock.advance(1000);
  }
  await delivery.finish();
  return { calls: adapter.calls.map((c) => c.text), final: [...adapter.messages.values()].map((m) => m.text).join('\n') };
}

describe('StreamDelivery with safeLength', () => {
  const text = `First line.\nThe secret is ${secret} (base64 ${Buffer.from(secret).toString('base64')}), spaced ${[...secret].join(' ')}. Bye!`;

  test('no edit shows even 4 characters of a secret in any form, and the final text is complete', async () => {
    const { calls, final } = await streamed({ text, safeLength: true });
    assert.ok(calls.length > 10, `only ${calls.length} platform calls`);
    for (const shown of calls) assert.equal(leakedPiece({ text: shown, secrets: [secret], minLength: 4 }), undefined, shown);
    assert.equal(final, 'First line.\nThe secret is *** (base64 ***), spaced ***. Bye!');
  });

  test('without it the growing text shows the start of a secret before it is masked (what the hold-back prevents)', async () => {
    const { calls } = await streamed({ text, safeLength: false });
    assert.ok(calls.some((shown) => leakedPiece({ text: shown, secrets: [secret], minLength: 4 }) !== undefined));
  });
});

describe('Redactor.scanFile', () => {
  test('a secret straddling the 1 MB chunk boundary is found; a clean file is clean', async () => {
    const file = path.join(tmp, 'big.bin');
    const filler = Buffer.alloc(1024 * 1024 - 10, 0x41);
    writeFileSync(file, Buffer.concat([filler, Buffer.from(Buffer.from(secret).toString('hex')), filler]));
    assert.deepEqual(await redactor.scanFile({ path: file }), { kind: 'secret' });
    writeFileSync(file, Buffer.concat([filler, filler]));
    assert.deepEqual(await redactor.scanFile({ path: file }), { kind: 'clean' });
  });

  test('too large and unreadable files are values, not throws', async () => {
    const file = path.join(tmp, 'small.txt');
    writeFileSync(file, 'x'.repeat(100));
    const scanned = await new Redactor({ secrets: [secret] }).scanFile({ path: file });
    assert.deepEqual(scanned, { kind: 'clean' });
    const { scanFile } = await import('../../../src/secrets/file-scan.js');
    const { SecretMatcher } = await import('../../../src/secrets/matcher.js');
    assert.deepEqual(await scanFile({ path: file, matcher: new SecretMatcher({ secrets: [secret] }), maxBytes: 50 }), { kind: 'too_large', size: 100, limit: 50 });
    assert.deepEqual(await redactor.scanFile({ path: path.join(tmp, 'missing') }), { kind: 'unreadable', code: 'ENOENT' });
  });
});

test('mediaPolicy refuses a workspace file whose bytes hold a secret, with a reason the user sees; others pass', async () => {
  const profile = resolveProfile({ hermesHome: path.join(tmp, 'home'), name: 'p' });
  ensureProfileDirs({ profile });
  mkdirSync(profile.workspaceDir, { recursive: true });
  const policy = mediaPolicy({ profile, workspace: profile.workspaceDir, confine: true, secrets: redactor });
  const copy = path.join(profile.workspaceDir, 'innocent.png');
  writeFileSync(copy, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47]), Buffer.from([...secret].reverse().join(''))]));
  assert.match((await policy({ path: copy })) ?? '', /contains one of the profile's secrets/);
  const clean = path.join(profile.workspaceDir, 'clean.txt');
  writeFileSync(clean, 'nothing to see');
  assert.equal(await policy({ path: clean }), undefined);
  assert.equal(await policy({ path: path.join(profile.workspaceDir, 'missing.txt') }), undefined, 'a missing file is left to the send check');
});

test('scrubStoredMessage scrubs content and tool-call arguments, keeping the arguments valid JSON', () => {
  const stored = scrubStoredMessage({
    message: {
      sessionId: 's',
      role: 'assistant',
      content: `use ${secret}`,
      toolCalls: [
        { id: 'a', name: 'terminal', arguments: JSON.stringify({ command: `echo ${secret}` }) },
        { id: 'b', name: 'terminal', arguments: `{"command":"${secret.slice(0, 10)}","x":"${secret.slice(10)}"}` },
      ],
    },
    scrub: (text) => redactor.scrub(text),
  });
  assert.equal(stored.content, 'use ***');
  assert.deepEqual(JSON.parse(stored.toolCalls?.[0]?.arguments ?? ''), { command: 'echo ***' });
  assert.deepEqual(JSON.parse(stored.toolCalls?.[1]?.arguments ?? ''), { command: '***', x: '***' }, 'a secret split over two JSON strings');
  const broken = scrubStoredMessage({
    message: { sessionId: 's', role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'terminal', arguments: `{"command":"a"}${secret}` }] },
    scrub: (text) => redactor.scrub(text),
  });
  assert.equal(broken.toolCalls?.[0]?.arguments, '{}', 'arguments that do not parse after scrubbing are stored as {}');
});

test('scanFile does not block on a FIFO or read a directory: they are not files', async () => {
  const { execFileSync } = await import('node:child_process');
  const fifo = path.join(tmp, 'pipe');
  execFileSync('mkfifo', [fifo]);
  assert.deepEqual(await redactor.scanFile({ path: fifo }), { kind: 'not_a_file' });
  assert.deepEqual(await redactor.scanFile({ path: tmp }), { kind: 'not_a_file' });
});
