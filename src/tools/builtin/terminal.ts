import { z } from 'zod';
import { classifyCommand } from '../approval/classify-command.js';
import { defineTool } from '../tool.js';
import { ToolError } from '../../core/errors.js';
import { refusalUnlessApproved } from './terminal-approval.js';
import { runCommand, type CommandResult } from './run-command.js';
import { errorMessage } from '../../util/error-text.js';

/** PATH used when the gateway itself has none. */
const FALLBACK_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

const input = z.object({
  command: z.string().min(1),
  timeout: z
    .number()
    .positive()
    .optional()
    .describe('Seconds, up to the configured maximum (the default).'),
});

/**
 * The environment a command sees: a PATH, HOME set to the workspace and a locale.
 * Nothing else from the gateway's environment (API keys, bot tokens) is passed on.
 */
export function commandEnv(params: { workspace: string; path?: string }): Record<string, string> {
  return { PATH: params.path ?? FALLBACK_PATH, HOME: params.workspace, LANG: 'C.UTF-8', TERM: 'dumb' };
}

/** `terminal`: runs a shell command in the workspace and returns its output and exit code. */
export const terminalTool = defineTool({
  name: 'terminal',
  description:
    'Run a command with /bin/sh -c in the workspace; returns stdout/stderr and the exit code. No stdin; killed with ' +
    'its children at the timeout.',
  input,
  parallel: 'never',
  toolsets: ['terminal'],
  // Serial for the model's rounds, but a script may run commands (under the same hard block and approval).
  codeCallable: true,
  progress: { emoji: '⚙', arg: 'command', style: 'colon' },
  failedAs,
  handler: async (args, ctx) => {
    const verdict = classifyCommand({ command: args.command });
    if (verdict.kind === 'blocked') {
      throw new ToolError(`refused: ${verdict.match.description} is never run, whatever the approval setting`);
    }
    if (verdict.kind === 'dangerous') {
      const matches = verdict.matches.map((m) => ({ patternId: m.patternId, description: m.description, segment: m.segment }));
      // Denied (by the owner, the policy, a timeout or a /stop): returned, not thrown, so the model reads why and does not retry.
      const refusal = await refusalUnlessApproved({ ctx, tool: 'terminal', command: args.command, matches });
      if (refusal !== undefined) return refusal;
    }
    const limitMs = ctx.terminal.timeoutMs;
    const timeoutMs = args.timeout === undefined ? limitMs : Math.min(args.timeout * 1_000, limitMs);
    const sandbox = ctx.terminal.sandbox;
    // tools.terminal.sandbox: bwrap where bwrap does not work: nothing runs, and the model is told why.
    if (sandbox?.kind === 'unavailable') throw new ToolError(sandbox.reason);
    // A command that deletes, moves or overwrites files: the workspace as it was, for /rollback.
    if (ctx.checkpoints !== undefined && changesFiles({ command: args.command })) await ctx.checkpoints.before({ path: ctx.workspace, reason: `terminal: ${args.command.slice(0, 80)}` });
    let result: CommandResult;
    try {
      result = await runCommand({
        command: args.command,
        cwd: ctx.workspace,
        env: commandEnv({ workspace: ctx.workspace, path: process.env['PATH'] }),
        timeoutMs,
        maxOutputBytes: ctx.terminal.maxOutputBytes,
        clock: ctx.clock,
        signal: ctx.signal,
        ...(sandbox ? { sandbox } : {}),
      });
    } catch (error) {
      const reason = errorMessage(error);
      throw new ToolError(`could not start the command in ${ctx.workspace}: ${reason}`);
    }
    const output = result.output.length > 0 ? `${result.output.replace(/\n$/, '')}\n` : '(no output)\n';
    return output + statusLine({ result, timeoutMs });
  },
});

/**
 * Whether a command may delete, move or overwrite files (a checkpoint is taken first): rm, rmdir, mv, unlink, truncate,
 * shred, sed -i, find -delete, a redirect over a file (`>`, not `>>`, `2>&1` or `>/dev/null`), git reset, checkout,
 * restore, clean or stash. It errs on the side of a checkpoint (a quoted ">" counts): one too many costs a snapshot.
 */
export function changesFiles(params: { command: string }): boolean {
  const { command } = params;
  const words = /(^|[;&|(`]\s*|\bsudo\s+|\bxargs\s+(?:-\S+\s+)*)(rm|rmdir|mv|unlink|truncate|shred)\b/;
  const inPlace = /\bsed\s+(?:-\S*\s+)*-\S*i|\bperl\s+-\S*i|\bfind\b.*\s-delete\b/;
  const git = /\bgit\b.*\s(reset|checkout|restore|clean|stash|switch)\b/;
  const redirect = /(^|[^>&0-9])\d?>(?![>&])\s*(?!\/dev\/null\b)[^\s&|;]/;
  return words.test(command) || inPlace.test(command) || git.test(command) || redirect.test(command);
}

/**
 * A command that failed, for the failure escalation: its program, how it ended, and its last line of output. An exit
 * code of 1 without output is an answer, not a failure (grep found nothing, test was false).
 */
function failedAs(params: { content: string; args: unknown }): string | undefined {
  const lines = params.content.trimEnd().split('\n');
  const status = lines.at(-1) ?? '';
  if (/^\[exit code: 0\]$/.test(status) || /^\[interrupted by the user/.test(status)) return undefined;
  const output = lines.slice(0, -1).filter((line) => line.trim() !== '');
  const last = output.at(-1) ?? '(no output)';
  if (status === '[exit code: 1]' && last === '(no output)') return undefined;
  const command = typeof params.args === 'object' && params.args !== null ? (params.args as Record<string, unknown>)['command'] : undefined;
  const program = typeof command === 'string' ? (command.trim().split(/\s+/)[0] ?? '') : '';
  return `${program} ${status} ${last}`;
}

function statusLine(params: { result: CommandResult; timeoutMs: number }): string {
  const { result } = params;
  if (result.killedFor === 'timeout') {
    const seconds = Math.round(params.timeoutMs / 100) / 10;
    return `[timed out after ${seconds} s: the command and its child processes were killed]`;
  }
  if (result.killedFor === 'abort') return '[interrupted by the user: the command and its child processes were killed]';
  if (result.exitSignal) return `[killed by signal ${result.exitSignal}]`;
  return `[exit code: ${result.exitCode ?? 'unknown'}]`;
}
