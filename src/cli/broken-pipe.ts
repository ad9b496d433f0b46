import { tolerateBrokenOutput } from '../log/broken-output.js';

/** Whether a closed stdout should leave the process running (set by long-lived commands such as `gateway run`). */
let outlive = false;

/**
 * `hermes doctor | head -1`: once the reader of stdout went away (EPIPE) nothing more the command prints can be
 * read, so the process ends at once, quietly, with status 0 (the reader got what it asked for), instead of a stack
 * trace or the command's own exit code after work nobody sees. stderr going away is tolerated (the command goes on).
 * One call at the CLI entry covers every command; `outliveBrokenStdout` exempts a daemon.
 */
export function endQuietlyOnBrokenPipe(params: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream; exit: (code: number) => void }): void {
  tolerateBrokenOutput({ stream: params.stdout });
  tolerateBrokenOutput({ stream: params.stderr });
  params.stdout.on('error', (error: unknown) => {
    if (!outlive && isBrokenPipe(error)) params.exit(0);
  });
}

/** For `gateway run`: a daemon outlives whoever reads its stdout (a journal that restarted), so EPIPE must not end it. */
export function outliveBrokenStdout(): void {
  outlive = true;
}

/** True for the errors of writing to a pipe whose reader is gone. */
function isBrokenPipe(error: unknown): boolean {
  const code = error !== null && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}
