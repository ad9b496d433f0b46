import type { Readable, Writable } from 'node:stream';
import { UserFacingError } from '../core/errors.js';
import { errorMessage } from '../util/error-text.js';

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
 * Turns any failure into one clear line plus a hint, and the exit code to use. Unexpected errors are one line
 * plus a hint to rerun with HERMES_DEBUG=1, which prints the stack instead of the hint.
 */
export function describeFailure(params: { error: unknown; debug: boolean; scrub: (text: string) => string }): { text: string; exitCode: number } {
  const { error, scrub } = params;
  if (error instanceof UserFacingError) {
    const lines = [`error: ${scrub(error.message)}`];
    if (error.hint) lines.push(`hint: ${scrub(error.hint)}`);
    return { text: lines.join('\n'), exitCode: error.exitCode };
  }
  const message = errorMessage(error);
  const lines = [`error: unexpected failure: ${scrub(message)}`];
  if (params.debug && error instanceof Error && error.stack) lines.push(scrub(error.stack));
  else lines.push('hint: rerun with HERMES_DEBUG=1 to print the stack (include it if you report this).');
  return { text: lines.join('\n'), exitCode: 1 };
}
