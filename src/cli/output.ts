import type { Readable, Writable } from 'node:stream';
import { UserFacingError } from '../gateway/errors.js';

/** Where CLI commands write; tests pass their own. */
export interface CliIO {
  readonly stdout: Writable;
  readonly stderr: Writable;
  readonly stdin: Readable;
  /** The environment snapshot the command runs with (never mutated). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether stdout is an interactive terminal. */
  readonly isTTY: boolean;
}

/** Writes one line. */
export function println(params: { stream: Writable; text: string }): void {
  params.stream.write(`${params.text}\n`);
}

/**
 * Turns any failure into one clear line plus a hint, and the exit code to use. Unexpected errors say where
 * the details are instead of dumping a stack (set HERMES_DEBUG=1 for the stack).
 */
export function describeFailure(params: { error: unknown; debug: boolean; scrub: (text: string) => string }): { text: string; exitCode: number } {
  const { error, scrub } = params;
  if (error instanceof UserFacingError) {
    const lines = [`error: ${scrub(error.message)}`];
    if (error.hint) lines.push(`hint: ${scrub(error.hint)}`);
    return { text: lines.join('\n'), exitCode: error.exitCode };
  }
  const message = error instanceof Error ? error.message : String(error);
  const lines = [`error: unexpected failure: ${scrub(message)}`];
  if (params.debug && error instanceof Error && error.stack) lines.push(scrub(error.stack));
  else lines.push('hint: the profile log (logs/gateway.log) has details; run with HERMES_DEBUG=1 to print the stack.');
  return { text: lines.join('\n'), exitCode: 1 };
}
