import { runCommand } from '../tools/builtin/run-command.js';
import { commandEnv } from '../tools/builtin/terminal.js';
import type { TerminalLimits } from '../tools/tool.js';
import type { Clock } from '../core/clock.js';

/** What a script job's command gave: its output (the exit code noted when not 0), or `aborted` (the gateway stopped). */
export type ScriptOutput = { readonly kind: 'output'; readonly output: string } | { readonly kind: 'aborted' };

/** Runs a script job's command in the workspace with the terminal tool's limits and environment (no model call). */
export async function runJobScript(params: { command: string; workspace: string; terminal: TerminalLimits; clock: Clock; signal: AbortSignal }): Promise<ScriptOutput> {
  const result = await runCommand({
    command: params.command,
    cwd: params.workspace,
    env: commandEnv({ workspace: params.workspace, ...(process.env['PATH'] === undefined ? {} : { path: process.env['PATH'] }) }),
    timeoutMs: params.terminal.timeoutMs,
    maxOutputBytes: params.terminal.maxOutputBytes,
    clock: params.clock,
    signal: params.signal,
  });
  if (result.killedFor === 'abort') return { kind: 'aborted' };
  const output = result.output.trim();
  const ending = result.killedFor === 'timeout' ? '(the command timed out)' : result.exitCode !== 0 && result.exitCode !== null ? `(exit code ${result.exitCode})` : '';
  return { kind: 'output', output: ending === '' ? output : output === '' ? ending : `${output}\n${ending}` };
}
