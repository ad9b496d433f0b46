import { Writable } from 'node:stream';
import pino, { type Logger } from 'pino';
import type { InjectRequest, InjectTurn } from '../../../src/jobs/inject-request.js';

/** A pino logger at debug level whose parsed lines land in `lines`. */
export function captureLogger(): { logger: Logger; lines: Array<{ level: number; msg: string } & Record<string, unknown>> } {
  const lines: Array<{ level: number; msg: string } & Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, stream), lines };
}

/** An inject callback that records every request (and can be made to fail or to take fake time). */
export function recordingInject(params: { fail?: () => boolean; during?: (params: { signal: AbortSignal }) => Promise<void> } = {}): { inject: InjectTurn; requests: InjectRequest[] } {
  const requests: InjectRequest[] = [];
  const inject: InjectTurn = async ({ request, signal }) => {
    if (params.fail?.() === true) throw new Error('no home channel');
    requests.push(request);
    await params.during?.({ signal });
  };
  return { inject, requests };
}

/** Waits (real time, bounded) until `check` holds: for work a real child process does. */
export async function waitFor(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
