import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { ChatPacer } from '../../../src/gateway/delivery/pacer.js';
import { StreamDelivery } from '../../../src/gateway/delivery/stream.js';
import { Redactor } from '../../../src/log/redact.js';
import { scrubStoredMessage } from '../../../src/store/scrub-message.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { leakedPiece } from '../../helpers/secret-leaks.js';
import { MemoryAdapter } from '../delivery/memory-adapter.js';

/** mulberry32: a small seeded PRNG, so a failing case can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Rng = () => number;
const int = (rng: Rng, min: number, max: number): number => min + Math.floor(rng() * (max - min + 1));
const pick = <T>(rng: Rng, items: readonly T[]): T => items[int(rng, 0, items.length - 1)] as T;

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A token-like secret: 12-48 letters and digits, now and then a `-`, `_`, `:` or `.` inside. */
function randomSecret(rng: Rng): string {
  const length = int(rng, 12, 48);
  let out = '';
  for (let i = 0; i < length; i++) out += i > 0 && i < length - 1 && rng() < 0.08 ? pick(rng, ['-', '_', ':', '.']) : pick(rng, [...ALNUM]);
  return out;
}

const SEPARATORS = [' ', '-', '\n', ' : ', '.', ', ', '\t', '  '];

/** Ways a tool or a model could hand a secret on. */
const ENCODINGS: Readonly<Record<string, (s: string, rng: Rng) => string>> = {
  raw: (s) => s,
  json: (s) => JSON.stringify({ value: s }),
  separated: (s, rng) => [...s].join(pick(rng, SEPARATORS)),
  reversed: (s) => [...s].reverse().join(''),
  reversedSeparated: (s, rng) => [...s].reverse().join(pick(rng, SEPARATORS)),
  base64: (s, rng) => Buffer.from(`${'x'.repeat(int(rng, 0, 5))}KEY=${s}\n`).toString('base64'),
  base64url: (s, rng) => Buffer.from(`${'y'.repeat(int(rng, 0, 5))}${s}`).toString('base64url'),
  hex: (s) => Buffer.from(s).toString('hex'),
  hexUpper: (s) => Buffer.from(s).toString('hex').toUpperCase(),
  hexSpaced: (s, rng) => (Buffer.from(s).toString('hex').match(/../g) ?? []).join(pick(rng, [' ', ':', '\n'])),
  percent: (s) => (Buffer.from(s).toString('hex').match(/../g) ?? []).map((pair) => `%${pair}`).join(''),
  uri: (s) => encodeURIComponent(`a=${s}&b=1`),
};

/** A piece of at least 8 characters of the secret (sometimes all of it). */
function excerpt(rng: Rng, secret: string): string {
  if (rng() < 0.5) return secret;
  const length = int(rng, 8, secret.length);
  const start = int(rng, 0, secret.length - length);
  return secret.slice(start, start + length);
}

const WORDS = [
  'the', 'model', 'said', 'hello', 'world', 'config', 'token', 'please', 'deploy', 'server', 'ok', 'done', 'a', 'bad', 'face',
  '42', '2026-12-01', '1700000000000', 'SGVsbG8gd29ybGQ=', 'deadbeefcafe0123', 'const x = 1;', 'https://example.com/a?b=c%20d', '—', 'naïve',
];
function filler(rng: Rng): string {
  return Array.from({ length: int(rng, 0, 12) }, () => pick(rng, WORDS)).join(pick(rng, [' ', ' ', '\n', ', ']));
}

interface Case {
  readonly secrets: string[];
  readonly encoding: string;
  readonly before: string;
  readonly after: string;
  readonly payload: string;
  readonly text: string;
}

function randomCase(rng: Rng): Case {
  const secrets = Array.from({ length: int(rng, 1, 3) }, () => randomSecret(rng));
  const encoding = pick(rng, Object.keys(ENCODINGS));
  const encode = ENCODINGS[encoding];
  assert.ok(encode);
  const payload = encode(excerpt(rng, pick(rng, secrets)), rng);
  const before = filler(rng);
  const after = filler(rng);
  return { secrets, encoding, before, after, payload, text: `${before} ${payload} ${after}` };
}

const CASES_PER_CHANNEL = 150;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'hermes-secret-prop-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

function check(params: { seed: number; c: Case; shown: readonly string[]; channel: string }): void {
  for (const text of params.shown) {
    const piece = leakedPiece({ text, secrets: params.c.secrets });
    assert.equal(piece, undefined, `seed ${params.seed} (${params.channel}, ${params.c.encoding}): ${JSON.stringify(piece)} of ${JSON.stringify(params.c.secrets)} in ${JSON.stringify(text)}`);
  }
}

test('property: a tool result or a stored message never keeps 8 consecutive characters of a secret, in any encoding; ordinary text is untouched', () => {
  for (let seed = 1; seed <= CASES_PER_CHANNEL; seed++) {
    const rng = prng(seed);
    const c = randomCase(rng);
    const redactor = new Redactor({ secrets: c.secrets });
    const scrub = (text: string): string => redactor.scrub(text);
    check({ seed, c, shown: [scrub(c.text)], channel: 'tool result' });
    const stored = scrubStoredMessage({
      message: { sessionId: 's', role: 'assistant', content: c.text, toolCalls: [{ id: 'c1', name: 'terminal', arguments: JSON.stringify({ command: c.text }) }] },
      scrub,
    });
    check({ seed, c, shown: [stored.content, ...(stored.toolCalls ?? []).map((call) => call.arguments)], channel: 'stored message' });
    assert.equal(scrub(c.before), c.before, `seed ${seed}: ordinary text was changed`);
    assert.equal(scrub(c.after), c.after, `seed ${seed}: ordinary text was changed`);
  }
});

test('property: an attachment holding a secret in any encoding (also inside binary bytes) is found; one without is not', async () => {
  let holding = 0;
  for (let seed = 1; seed <= CASES_PER_CHANNEL; seed++) {
    const rng = prng(1000 + seed);
    const c = randomCase(rng);
    const redactor = new Redactor({ secrets: c.secrets });
    const binary = Buffer.from(Array.from({ length: int(rng, 0, 300) }, () => int(rng, 0, 255)));
    const file = path.join(tmp, `case-${seed}.bin`);
    const content = Buffer.concat([binary, Buffer.from(c.text), binary]);
    writeFileSync(file, content);
    const found = await redactor.scanFile({ path: file });
    // Every file that shows a piece of a secret (by the independent check) is refused. (An 8-character excerpt
    // holding a separator, then spread out, shows fewer than 8 of the secret's characters in a row: no piece.)
    const piece = leakedPiece({ text: content.toString('latin1'), secrets: c.secrets });
    if (piece !== undefined) holding += 1;
    if (piece !== undefined) assert.equal(found.kind, 'secret', `seed ${1000 + seed} (${c.encoding}): ${JSON.stringify(c.payload)} in a file was not found`);
    writeFileSync(file, Buffer.concat([binary, Buffer.from(`${c.before} ${c.after}`)]));
    assert.equal((await redactor.scanFile({ path: file })).kind, 'clean', `seed ${1000 + seed}: a file without a secret was refused`);
  }
  assert.ok(holding >= CASES_PER_CHANNEL * 0.9, `only ${holding} of ${CASES_PER_CHANNEL} files held a piece of a secret`);
});

test('property: a reply streamed in chunks of 1-8 characters never shows 8 consecutive characters of a secret in any edit', async () => {
  for (let seed = 1; seed <= CASES_PER_CHANNEL; seed++) {
    const rng = prng(2000 + seed);
    const c = randomCase(rng);
    const redactor = new Redactor({ secrets: c.secrets });
    const clock = new FakeClock();
    const adapter = new MemoryAdapter({ clock });
    const delivery = new StreamDelivery({
      adapter,
      chat: { id: 'chat', kind: 'dm' },
      pacer: new ChatPacer({ clock, intervalMs: 1000, maxChats: 4 }),
      chatKey: 'chat',
      clock,
      cursor: ' ▉',
      journal: { record: () => undefined },
      scrub: (text) => redactor.scrub(text),
      safeLength: (params) => redactor.safeLength(params),
    });
    for (let at = 0; at < c.text.length; ) {
      const size = int(rng, 1, 8);
      delivery.push(c.text.slice(at, at + size));
      at += size;
      await clock.advance(1000); // an edit after every chunk
    }
    const result = await delivery.finish();
    assert.equal(result.textComplete, true);
    const shown = [...adapter.calls.map((call) => call.text), ...[...adapter.messages.values()].map((m) => m.text)];
    assert.ok(adapter.calls.length >= 1);
    check({ seed: 2000 + seed, c, shown, channel: 'streamed edit' });
  }
});
