import { execFile } from 'node:child_process';
import path from 'node:path';

/** A program that did not run to a zero exit, with what went wrong in words (`detail`: its stderr's last line, or why). */
export class ProgramError extends Error {
  override readonly name = 'ProgramError';
  readonly detail: string;

  constructor(params: { message: string; detail: string }) {
    super(params.message);
    this.detail = params.detail;
  }
}

/** `text` quoted for /bin/sh. */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * Runs `file args` (no shell) and resolves with its stdout. Rejects with a ProgramError saying the program is not
 * installed, or naming its stderr's last line; when `signal` aborts, with the signal's reason (the child is killed).
 */
export function runProgram(params: {
  file: string;
  args: readonly string[];
  signal?: AbortSignal | undefined;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  maxBuffer?: number;
}): Promise<string> {
  const { signal } = params;
  return new Promise((resolve, reject) => {
    const options = { maxBuffer: params.maxBuffer ?? 4 * 1024 * 1024, killSignal: 'SIGKILL' as const, ...(signal ? { signal } : {}), ...(params.cwd ? { cwd: params.cwd } : {}), ...(params.env ? { env: params.env } : {}) };
    execFile(params.file, [...params.args], options, (error, stdout, stderr) => {
      if (error === null) {
        resolve(stdout);
        return;
      }
      if (signal?.aborted === true) {
        const reason: unknown = signal.reason;
        reject(reason instanceof Error ? reason : new ProgramError({ message: 'it was cut short', detail: 'it was cut short' }));
        return;
      }
      if (error.code === 'ENOENT') {
        reject(new ProgramError({ message: `${params.file} is not installed`, detail: `${params.file} is not installed` }));
        return;
      }
      const last = stderr.trim().split('\n').pop() ?? '';
      const detail = last !== '' ? last : error.message;
      reject(new ProgramError({ message: `${path.basename(params.file)} failed: ${detail}`, detail }));
    });
  });
}
