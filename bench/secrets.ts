import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redactor } from '../src/log/redact.js';

// Secret matching cost (src/secrets/): `node --import tsx bench/secrets.ts`. Prints ms per call; asserts nothing.

/** Deterministic pseudo-random bytes (xorshift32). */
function bytes(params: { length: number; seed: number }): Buffer {
  const out = Buffer.alloc(params.length);
  let x = params.seed >>> 0 || 1;
  for (let i = 0; i < out.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

const secrets = Array.from({ length: 20 }, (_, i) => `tok-${i}-${bytes({ length: 24, seed: 7 + i }).toString('base64url')}`);
const redactor = new Redactor({ secrets });
const prose = 'The gateway streams answers to Telegram, Slack and Discord; it keeps 1700000000000 rows and deadbeef hashes. '.repeat(1000).slice(0, 100_000);
const mixed = (prose.slice(0, 40_000) + bytes({ length: 45_000, seed: 3 }).toString('base64') + secrets[5]).slice(0, 100_000);

/** Mean ms of `runs` calls of `fn` after one warm-up call. */
async function measure(params: { label: string; runs: number; fn: () => unknown }): Promise<void> {
  await params.fn();
  const start = performance.now();
  for (let i = 0; i < params.runs; i++) await params.fn();
  console.log(`${params.label.padEnd(44)} ${((performance.now() - start) / params.runs).toFixed(2).padStart(8)} ms`);
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-bench-secrets-'));
try {
  const binary = path.join(dir, 'random.bin');
  writeFileSync(binary, bytes({ length: 8 * 1024 * 1024, seed: 11 }));
  console.log(`node ${process.version}, ${secrets.length} secrets`);
  await measure({ label: 'scrub 100 KB prose', runs: 20, fn: () => redactor.scrub(prose) });
  await measure({ label: 'scrub 100 KB prose + base64 + a secret', runs: 20, fn: () => redactor.scrub(mixed) });
  await measure({ label: 'safeLength 100 KB (a streamed reply so far)', runs: 20, fn: () => redactor.safeLength({ text: mixed }) });
  await measure({ label: 'scrub 4 KB (one streamed edit)', runs: 200, fn: () => redactor.scrub(prose.slice(0, 4096)) });
  await measure({ label: 'scrub 200 B (one log line)', runs: 2000, fn: () => redactor.scrub(prose.slice(0, 200)) });
  await measure({ label: 'scanFile 8 MB random binary', runs: 3, fn: () => redactor.scanFile({ path: binary }) });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
