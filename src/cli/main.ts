#!/usr/bin/env node
// The `hermes` entry point: it imports next to nothing itself, so each command pays only for the modules it needs.
import nodeModule from 'node:module';
import { packageVersion } from '../util/package-root.js';
import type { CliIO } from './output.js';
import { isMain } from '../util/is-main.js';
import { endQuietlyOnBrokenPipe } from './broken-pipe.js';

/** The command bare `hermes` runs (also `hermes -p work`): the terminal chat, as users of other agents expect. */
export const DEFAULT_COMMAND = 'chat';

/** `argv` with `chat` appended when it holds only the global `-p NAME` option, or nothing at all. */
export function withDefaultCommand(params: { argv: readonly string[] }): string[] {
  const argv = [...params.argv];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '-p' || arg === '--profile') {
      // `hermes -p` without a name: commander says so.
      if (i === argv.length - 1) return argv;
      i += 1;
    } else if (!(arg.startsWith('--profile=') || (arg.startsWith('-p') && arg.length > 2))) return argv;
  }
  return [...argv, DEFAULT_COMMAND];
}

/** Runs the CLI with arguments (without node and script); returns the exit code. */
export async function runCli(params: { argv: readonly string[]; io: CliIO }): Promise<number> {
  if (params.argv.length === 1 && (params.argv[0] === '--version' || params.argv[0] === '-V')) {
    // Answered before commander and the command tree load: `hermes --version` costs little more than node itself.
    params.io.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const [{ CommanderError }, { buildProgram }, { describeFailure }] = await Promise.all([import('commander'), import('./program.js'), import('./output.js')]);
  let exitCode = 0;
  const program = buildProgram({ io: params.io, setExit: (code) => (exitCode = code) });
  const argv = withDefaultCommand({ argv: params.argv });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help' ? 0 : 64;
    }
    const failure = describeFailure({ error, debug: params.io.env['HERMES_DEBUG'] === '1', scrub: (t) => t });
    params.io.stderr.write(`${failure.text}\n`);
    return failure.exitCode;
  }
}

if (isMain({ moduleUrl: import.meta.url })) {
  // Node 22.1+ keeps the compiled code of the modules a command loads on disk for the next run (a no-op on Node 20).
  (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();
  // `hermes doctor | head -1`: a reader that went away (EPIPE) ends the command quietly, status 0.
  endQuietlyOnBrokenPipe({ stdout: process.stdout, stderr: process.stderr, exit: (code) => process.exit(code) });
  const code = await runCli({
    argv: process.argv.slice(2),
    io: { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: { ...process.env }, isTTY: process.stdout.isTTY === true },
  });
  process.exitCode = code;
}
