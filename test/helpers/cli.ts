import { PassThrough } from 'node:stream';
import { runCli } from '../../src/cli/main.js';

/** Runs the CLI in-process with captured output. */
export async function cli(params: { argv: string[]; env: Record<string, string>; stdin?: string }): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  stdin.end(params.stdin ?? '');
  const code = await runCli({ argv: params.argv, io: { stdout, stderr, stdin, env: params.env, isTTY: false } });
  return { code, stdout: out, stderr: err };
}
