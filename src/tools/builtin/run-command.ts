import { spawn } from 'node:child_process';
import { realpathSync } from 'node:fs';
import type { Duplex } from 'node:stream';
import type { Clock } from '../../core/clock.js';
import { bwrapArgs } from '../sandbox/bwrap-args.js';
import type { BwrapSettings } from '../sandbox/spec.js';
import { OutputCap } from './output-cap.js';

/** Time a killed process group gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2_000;
/** Time to wait for pipes to close after the shell exited (background children may hold them). */
const DRAIN_GRACE_MS = 500;

/** How a command ended. */
export interface CommandResult {
  /** Combined stdout+stderr in arrival order, capped. */
  output: string;
  /** Exit code, or null when it was ended by a signal. */
  exitCode: number | null;
  /** The signal that ended it, if any. */
  exitSignal: NodeJS.Signals | null;
  /** Why we killed it, if we did. */
  killedFor: 'timeout' | 'abort' | undefined;
}

/**
 * Runs `command` with /bin/sh -c in its own process group, with exactly the given env and stderr
 * merged into stdout.
 * On timeout or abort the whole group gets SIGTERM, then SIGKILL after a grace period.
 * With `sandbox` the shell runs under bwrap (see sandbox/bwrap-args.ts): killing bwrap's group ends the sandbox's
 * pid namespace (--die-with-parent), so everything the command started goes with it.
 */
export function runCommand(params: {
  command: string;
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
  maxOutputBytes: number;
  clock: Clock;
  signal: AbortSignal;
  /** Run confined under bubblewrap (the terminal tool's model-written commands); absent: unconfined. */
  sandbox?: BwrapSettings | undefined;
  /** Folders the sandboxed command sees read-only at their own paths (an execute_code run's script folder). */
  readOnly?: readonly string[];
  /**
   * Gives the command a private channel: its fd 3 is one end of a socketpair and `channel` gets the other (not a
   * network port; it passes through bwrap). The stream is destroyed when the command's result is resolved.
   */
  channel?: (stream: Duplex) => void;
  /** Kill the whole process group when the command has exited, so nothing it left in the background outlives it (execute_code). */
  endGroup?: boolean;
}): Promise<CommandResult> {
  const { clock, signal } = params;
  return new Promise<CommandResult>((resolve, reject) => {
    // stderr joins stdout inside the shell, so both arrive through one pipe in the order they were written.
    const script = `exec 2>&1\n${params.command}`;
    const [file, args] = params.sandbox
      ? [params.sandbox.bwrap, bwrapArgs({ settings: params.sandbox, workspace: realDir(params.cwd), script, ...(params.readOnly ? { readOnly: params.readOnly } : {}) })]
      : ['/bin/sh', ['-c', script]];
    // The env goes to bwrap too: its process is pid 1 in the sandbox, and /proc/1/environ shows what it was given.
    const child = spawn(file, args, {
      cwd: params.cwd,
      env: params.env,
      detached: true,
      // fd 3 is a socketpair when a channel is asked for (libuv makes 'pipe' a unix socketpair).
      stdio: params.channel ? ['ignore', 'pipe', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe'],
    });
    const { stdout, stderr } = child;
    if (stdout === null || stderr === null) throw new Error('spawn gave no output pipes');
    const channel = params.channel ? (child.stdio[3] as Duplex | null | undefined) : undefined;
    if (channel) params.channel?.(channel);
    const output = new OutputCap({ maxBytes: params.maxOutputBytes });
    const timers = new AbortController();
    let killedFor: CommandResult['killedFor'];
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let done = false;

    const signalGroup = (sig: NodeJS.Signals): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, sig);
      } catch {
        // The group is already gone.
      }
    };
    const kill = (reason: 'timeout' | 'abort'): void => {
      if (done || killedFor) return;
      killedFor = reason;
      signalGroup('SIGTERM');
      clock.sleep(KILL_GRACE_MS, timers.signal).then(() => signalGroup('SIGKILL'), () => undefined);
    };
    const onAbort = (): void => kill('abort');
    const finish = (): void => {
      if (done) return;
      done = true;
      timers.abort();
      signal.removeEventListener('abort', onAbort);
      if (killedFor || params.endGroup === true) signalGroup('SIGKILL');
      stdout.destroy();
      stderr.destroy();
      channel?.destroy();
      resolve({ output: output.render(), exitCode: exit?.code ?? null, exitSignal: exit?.signal ?? null, killedFor });
    };

    stdout.on('data', (chunk: Buffer) => output.push(chunk));
    stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => {
      if (done) return;
      done = true;
      timers.abort();
      channel?.destroy();
      signal.removeEventListener('abort', onAbort);
      reject(error);
    });
    child.on('exit', (code, sig) => {
      exit = { code, signal: sig };
      clock.sleep(DRAIN_GRACE_MS, timers.signal).then(finish, () => undefined);
    });
    child.on('close', finish);
    clock.sleep(params.timeoutMs, timers.signal).then(() => kill('timeout'), () => undefined);
    if (signal.aborted) kill('abort');
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The real path of a folder (the sandbox's mounts are ordered by real paths); as given when it cannot be resolved. */
function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}
