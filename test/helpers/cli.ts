import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/main.js';
import type { CliIO } from '../../src/cli/output.js';

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
