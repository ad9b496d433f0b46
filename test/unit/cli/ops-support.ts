// Support for the profile/logs/doctor tests: captured CLI IO and profiles written straight into a temp HERMES_HOME.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { stringify } from 'yaml';
import type { CliIO } from '../../../src/cli/output.js';

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

/** Writes profiles/NAME (or HERMES_HOME itself for "default") with a config.yaml and optionally a .env (mode 600). */
export function writeProfile(params: { home: string; name: string; config: unknown; dotenv?: string }): string {
  const dir = params.name === 'default' ? params.home : path.join(params.home, 'profiles', params.name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'config.yaml'), typeof params.config === 'string' ? params.config : stringify(params.config));
  if (params.dotenv !== undefined) writeFileSync(path.join(dir, '.env'), params.dotenv, { mode: 0o600 });
  return dir;
}
