import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/output.js';
import { openStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { systemClock } from '../../src/core/clock.js';

/** A CliIO whose output is collected; `stdin` is ended with the given text. */
export function captureIO(params: { env: Record<string, string>; stdin?: string }): { io: CliIO; stdout: () => string; stderr: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  stdin.end(params.stdin ?? '');
  return { io: { stdout, stderr, stdin, env: params.env, isTTY: false }, stdout: () => out, stderr: () => err };
}

/** Runs the CLI in-process with captured output. */
export async function cli(params: { argv: string[]; env: Record<string, string>; stdin?: string }): Promise<{ code: number; stdout: string; stderr: string }> {
  const captured = captureIO({ env: params.env, ...(params.stdin !== undefined ? { stdin: params.stdin } : {}) });
  const code = await runCli({ argv: params.argv, io: captured.io });
  return { code, stdout: captured.stdout(), stderr: captured.stderr() };
}

/** Runs `use` on a profile's own state.db under `home` (made with a config naming a model never called, then `config`), as its gateway would. */
export function withProfileStore<T>(params: { home: string; profile: string; config?: string }, use: (store: Store) => T): T {
  const dir = params.profile === 'default' ? params.home : path.join(params.home, 'profiles', params.profile);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'config.yaml'), `model:\n  base_url: http://127.0.0.1:9/v1\n  name: m\n  api_key: sk-x\n${params.config ?? ''}`);
  const store = openStore({ path: path.join(dir, 'state.db'), clock: systemClock });
  try {
    return use(store);
  } finally {
    store.close();
  }
}

/**
 * A `hermes -p NAME chat` running in-process on piped stdin (kept open for the test to type into), against `baseURL`.
 * `ready` resolves at its first prompt: the first chat of a test process loads the gateway's modules through tsx,
 * which takes seconds on a loaded machine, so a test's timed waits start after it.
 */
export function pipedChat(params: { home: string; profile: string; baseURL: string; apiKey: string }): { stdin: PassThrough; stdout: () => string; running: Promise<number>; ready: Promise<void> } {
  const dir = path.join(params.home, 'profiles', params.profile);
  mkdirSync(path.join(dir, 'workspace'), { recursive: true });
  writeFileSync(path.join(dir, '.env'), `OPENAI_API_KEY=${params.apiKey}\n`);
  writeFileSync(path.join(dir, 'config.yaml'), `model:\n  base_url: ${params.baseURL}\n  api_key: \${OPENAI_API_KEY}\n  max_retries: 0\n`);
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.resume();
  const running = runCli({ argv: ['-p', params.profile, 'chat'], io: { stdin, stdout, stderr, env: { HERMES_HOME: params.home, HOME: params.home }, isTTY: false } });
  const ready = (async (): Promise<void> => {
    const deadline = Date.now() + 60_000;
    while (!out.includes('› ')) {
      if (Date.now() > deadline) throw new Error(`hermes chat showed no prompt within 60 s; it printed: ${out}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  return { stdin, stdout: () => out, running, ready };
}
