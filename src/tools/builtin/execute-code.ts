import { z } from 'zod';
import { codeCallableTools, directOnlyNames } from '../code/callable.js';
import { executeCodeDescription } from '../code/describe.js';
import { runScript, type ScriptResult } from '../code/run-script.js';
import type { CodeRuntime } from '../code/runtime.js';
import { helperSignatures } from '../code/signature.js';
import { defineTool, type ToolDefinition } from '../tool.js';
import { ToolError } from '../../core/errors.js';
import { errorMessage } from '../../util/error-text.js';

/** Limits when the context does not carry tools.code_execution (its defaults). */
const DEFAULT_LIMITS = { timeoutMs: 300_000, maxToolCalls: 50 };

const input = z.object({
  code: z.string().min(1),
  language: z.enum(['python', 'javascript']).optional(),
});

/**
 * `execute_code` (Hermes Agent's shape): runs a model-written script whose generated `hermes_tools` module calls the
 * agent's tools over a channel private to the run. `tools` are the registry's tools at registration, for the helper
 * functions the description lists (what a script may really call is `ctx.toolCalls.names`, filled by the agent).
 * `refused`: the tools a script is told only the model may call (default: those of `tools` with `codeCallable: false`;
 * execute_code itself is added).
 */
export function executeCodeTool(params: { runtime: CodeRuntime; tools: readonly ToolDefinition[]; refused?: readonly string[] }): ToolDefinition<typeof input> {
  const { runtime } = params;
  const listed = helperSignatures({ tools: codeCallableTools({ tools: params.tools }) });
  const name = 'execute_code';
  const refused = [...new Set([...(params.refused ?? directOnlyNames({ tools: params.tools })), name])];
  return defineTool({
    name,
    toolsets: ['code_execution'],
    description: executeCodeDescription({ runtime, signatures: listed }),
    input,
    parallel: 'never',
    childBlocked: true,
    codeCallable: false,
    callsTools: true,
    // A script's calls replace many model rounds: its round is refunded (Hermes Agent's rule).
    freeRound: true,
    progress: { emoji: '🐍' },
    handler: async (args, ctx) => {
      const tools = ctx.toolCalls;
      if (tools === undefined) throw new ToolError('execute_code is not available here (no tools to call from a script)');
      const language = args.language ?? runtime.language;
      const interpreter = language === 'python' ? runtime.python : runtime.node;
      if (interpreter === undefined) throw new ToolError('python3 is not installed here; write the script in JavaScript (language "javascript")');
      const sandbox = ctx.terminal.sandbox;
      if (sandbox?.kind === 'unavailable') throw new ToolError(sandbox.reason);
      const limits = ctx.codeExecution ?? DEFAULT_LIMITS;
      // The helpers name every tool a script may call now (extra tools registered after this one included).
      const signatures = helperSignatures({ tools: tools.names.map((name) => params.tools.find((t) => t.name === name)).filter((t): t is ToolDefinition => t !== undefined) });
      const known = new Set(signatures.map((s) => s.name));
      const all = [...signatures, ...tools.names.filter((n) => !known.has(n)).map((name) => ({ name, required: [], optional: [], open: true }))];
      let ran: ScriptResult;
      try {
        ran = await runScript({ code: args.code, language, interpreter, signatures: all, refused, tools, maxToolCalls: limits.maxToolCalls, timeoutMs: limits.timeoutMs, ctx, sandbox });
      } catch (error) {
        const reason = errorMessage(error);
        throw new ToolError(`could not start the script in ${ctx.workspace}: ${reason}`);
      }
      const { result } = ran;
      const output = result.output.length > 0 ? `${result.output.replace(/\n$/, '')}\n` : '(no output)\n';
      return output + statusLine({ ran, timeoutMs: limits.timeoutMs });
    },
  });
}

function statusLine(params: { ran: ScriptResult; timeoutMs: number }): string {
  const { result, toolCalls } = params.ran;
  const calls = `${toolCalls} tool call${toolCalls === 1 ? '' : 's'}`;
  if (result.killedFor === 'timeout') {
    const seconds = Math.round(params.timeoutMs / 100) / 10;
    return `[timed out after ${seconds} s: the script and its child processes were killed; ${calls}]`;
  }
  if (result.killedFor === 'abort') return `[interrupted by the user: the script and its child processes were killed; ${calls}]`;
  if (result.exitSignal) return `[killed by signal ${result.exitSignal}; ${calls}]`;
  return `[exit code: ${result.exitCode ?? 'unknown'}; ${calls}]`;
}
