import type { Logger } from 'pino';
import type { PlatformName } from '../config/schema.js';
import type { CheckConfig } from '../config/unasked-schema.js';
import { commandEnv } from '../tools/builtin/terminal.js';
import { runCommand, type CommandResult } from '../tools/builtin/run-command.js';
import type { Clock } from '../core/clock.js';
import type { FiredChecks } from './checks-fired.js';
import type { InjectTurn } from './inject-request.js';
import { runOnGrid } from './interval-loop.js';
import { errorMessage } from '../util/error-text.js';

/** Runs a command the way the terminal tool does (runCommand; tests pass a slow or scripted one). */
export type CommandRunner = (params: Parameters<typeof runCommand>[0]) => Promise<CommandResult>;

/** The terminal tool's limits (tools.terminal), applied to every check command. */
export interface CheckLimits {
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
}

/** What one run of a check came to. */
export type CheckOutcome =
  | { readonly kind: 'fired'; readonly output: string }
  | { readonly kind: 'quiet' }
  | { readonly kind: 'failing'; readonly reason: string };

/** The turn text for a check's output: its `prompt` (or the default framing naming the check) above the output. */
export function checkPrompt(params: { check: Pick<CheckConfig, 'name' | 'prompt'>; output: string }): string {
  const { check } = params;
  const framing = check.prompt ?? `This is the output of the check "${check.name}" (a command run on a schedule, not a message from the user); tell the user briefly what needs their attention.`;
  return `${framing.trim()}\n\n<check-output name="${check.name}">\n${params.output}\n</check-output>`;
}

/** Why a command result counts as failing, or undefined when it exited 0. */
function failure(result: CommandResult, timeoutMs: number): string | undefined {
  if (result.killedFor === 'timeout') return `timed out after ${timeoutMs} ms`;
  if (result.killedFor === 'abort') return 'stopped';
  if (result.exitSignal !== null) return `killed by ${result.exitSignal}`;
  if (result.exitCode !== 0) return `exit code ${result.exitCode ?? 'unknown'}`;
  return undefined;
}

/** Runs a check's command once in the workspace with the terminal's environment and limits; never calls a model. */
export async function runCheckCommand(params: {
  check: CheckConfig;
  workspace: string;
  limits: CheckLimits;
  clock: Clock;
  signal: AbortSignal;
  run?: CommandRunner;
}): Promise<CheckOutcome> {
  const run = params.run ?? runCommand;
  let result: CommandResult;
  try {
    result = await run({
      command: params.check.command,
      cwd: params.workspace,
      env: commandEnv({ workspace: params.workspace, path: process.env['PATH'] }),
      timeoutMs: params.limits.timeoutMs,
      maxOutputBytes: params.limits.maxOutputBytes,
      clock: params.clock,
      signal: params.signal,
    });
  } catch (error) {
    return { kind: 'failing', reason: `could not start: ${errorMessage(error)}` };
  }
  const reason = failure(result, params.limits.timeoutMs);
  if (reason !== undefined) return { kind: 'failing', reason };
  const output = result.output.trim();
  return output === '' ? { kind: 'quiet' } : { kind: 'fired', output };
}

/** What running checks needs besides the checks themselves: where and how commands run, and where output goes. */
export interface CheckRunDeps {
  workspace: string;
  limits: CheckLimits;
  fired: FiredChecks;
  inject: InjectTurn;
  clock: Clock;
  signal: AbortSignal;
  logger: Logger;
  run?: CommandRunner;
}

/**
 * Runs one check until `signal` aborts (or, for `once`, until it fired): on its grid of intervals from the start, no
 * overlapping runs (a run still going when the next falls due makes that one be skipped). Output after exit 0 →
 * `inject` to the home channel of `platform`; no output → nothing (a debug line); a non-zero exit, timeout or start
 * failure → a warn when it starts failing and an info when it recovers, debug lines in between.
 */
export async function runCheck(params: CheckRunDeps & { check: CheckConfig; platform: PlatformName }): Promise<void> {
  const { check, fired, clock } = params;
  const logger = params.logger.child({ check: check.name });
  if (check.once && fired.hasFired({ name: check.name, command: check.command })) {
    logger.info('check: once, fired before: retired');
    return;
  }
  const stop = new AbortController();
  const onAbort = (): void => stop.abort(params.signal.reason);
  if (params.signal.aborted) return;
  params.signal.addEventListener('abort', onAbort, { once: true });
  let failing = false;
  try {
    await runOnGrid({
      everyMs: check.interval,
      clock,
      signal: stop.signal,
      tick: async ({ scheduledFor }) => {
        const outcome = await runCheckCommand({ check, workspace: params.workspace, limits: params.limits, clock, signal: stop.signal, run: params.run });
        if (stop.signal.aborted) return;
        if (outcome.kind === 'failing') {
          if (!failing) logger.warn({ reason: outcome.reason }, 'check: command failing (warned once until it recovers)');
          else logger.debug({ reason: outcome.reason }, 'check: command still failing');
          failing = true;
          return;
        }
        if (failing) logger.info('check: command recovered');
        failing = false;
        if (outcome.kind === 'quiet') {
          logger.debug('check: no output, nothing to say');
          return;
        }
        const request = { source: 'check', name: check.name, platform: params.platform, prompt: checkPrompt({ check, output: outcome.output }), scheduledFor } as const;
        await params.inject({ request, signal: stop.signal });
        logger.info({ platform: params.platform, outputChars: outcome.output.length }, 'check: output injected as a turn');
        if (!check.once) return;
        try {
          fired.markFired({ name: check.name, command: check.command, atMs: clock.now() });
          logger.info('check: once, fired: retired');
        } catch (error) {
          logger.warn({ err: errorMessage(error) }, 'check: once, fired: retired until restart (could not record it)');
        }
        stop.abort();
      },
      onError: ({ error }) => logger.warn({ err: errorMessage(error) }, 'check: the turn could not be injected'),
      onSkipped: ({ count }) => logger.debug({ count }, 'check: still running when the next run fell due, skipped'),
    });
  } finally {
    params.signal.removeEventListener('abort', onAbort);
  }
}

/**
 * Runs every configured check (see runCheck) until `signal` aborts; resolves when all have stopped. A check goes to
 * its `target`, else `defaultTarget` (heartbeat.target); one with neither is not run (one warn).
 */
export async function runChecks(params: CheckRunDeps & { checks: readonly CheckConfig[]; defaultTarget: PlatformName | undefined }): Promise<void> {
  const { checks, defaultTarget, ...rest } = params;
  await Promise.all(
    checks.map(async (check) => {
      const platform = check.target ?? defaultTarget;
      if (platform === undefined) {
        params.logger.warn({ check: check.name }, 'check: not run: it has no target and heartbeat.target is not set');
        return;
      }
      await runCheck({ ...rest, check, platform });
    }),
  );
}
