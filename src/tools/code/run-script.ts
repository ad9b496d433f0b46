import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ToolCallsCapability } from '../capabilities.js';
import type { BwrapSettings } from '../sandbox/spec.js';
import type { ToolContext } from '../tool.js';
import { runCommand, type CommandResult } from '../builtin/run-command.js';
import { commandEnv } from '../builtin/terminal.js';
import { NODE_HELPER_PACKAGE, nodeHelperSource } from './helper-node.js';
import { pythonHelperSource } from './helper-python.js';
import { serveToolCalls } from './rpc.js';
import type { CodeLanguage } from './runtime.js';
import type { HelperSignature } from './signature.js';
import { shellQuote } from '../../util/run-program.js';

/** How a script run ended: the command's result and how many tool calls it made. */
export interface ScriptResult {
  readonly result: CommandResult;
  readonly toolCalls: number;
}

/** Writes the script and its helper module into `dir`; resolves to the shell command that runs it. */
async function prepare(params: { dir: string; code: string; language: CodeLanguage; interpreter: string; signatures: readonly HelperSignature[]; refused: readonly string[] }): Promise<string> {
  const { dir, language } = params;
  if (language === 'python') {
    await writeFile(path.join(dir, 'hermes_tools.py'), pythonHelperSource({ signatures: params.signatures }), { mode: 0o600 });
    await writeFile(path.join(dir, 'script.py'), params.code, { mode: 0o600 });
    // The script's folder comes first on sys.path, so `import hermes_tools` finds the helper; -B: no __pycache__.
    return `exec ${shellQuote(params.interpreter)} -B ${shellQuote(path.join(dir, 'script.py'))}`;
  }
  const pkg = path.join(dir, 'node_modules', 'hermes_tools');
  await mkdir(pkg, { recursive: true, mode: 0o700 });
  await writeFile(path.join(pkg, 'package.json'), NODE_HELPER_PACKAGE, { mode: 0o600 });
  await writeFile(path.join(pkg, 'index.js'), nodeHelperSource({ signatures: params.signatures, refused: params.refused }), { mode: 0o600 });
  await writeFile(path.join(dir, 'script.mjs'), params.code, { mode: 0o600 });
  return `exec ${shellQuote(params.interpreter)} ${shellQuote(path.join(dir, 'script.mjs'))}`;
}

/**
 * Runs one execute_code script: written to a private temp folder (0700, removed afterwards) with its helper module,
 * run with the workspace as cwd under the terminal's sandbox when there is one (the folder bound read-only), in its
 * own process group killed at `timeoutMs` and when the script exits (nothing it started outlives the run), output capped at the terminal's limit. Its tool calls arrive on fd 3 (a
 * socketpair private to this run) and go through `tools`; when the run ends the channel is closed and calls in flight
 * are aborted, so nothing the script left behind can reach the tools.
 */
export async function runScript(params: {
  code: string;
  language: CodeLanguage;
  interpreter: string;
  signatures: readonly HelperSignature[];
  /** The tools only the model may call directly: a script calling one is told so. */
  refused: readonly string[];
  tools: ToolCallsCapability;
  maxToolCalls: number;
  timeoutMs: number;
  ctx: ToolContext;
  sandbox: BwrapSettings | undefined;
}): Promise<ScriptResult> {
  const { ctx } = params;
  // At its real path: the sandbox binds it there, and a symlinked TMPDIR would not be.
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), 'hermes-code-')));
  // Aborted when the run ends or the turn is interrupted; the listener on the turn's signal goes with the run.
  const run = new AbortController();
  const { signal } = run;
  if (ctx.signal.aborted) run.abort();
  else ctx.signal.addEventListener('abort', () => run.abort(), { once: true, signal });
  let counter = { calls: 0 };
  try {
    const command = await prepare({ dir, code: params.code, language: params.language, interpreter: params.interpreter, signatures: params.signatures, refused: params.refused });
    const env = { ...commandEnv({ workspace: ctx.workspace, path: process.env['PATH'] }), PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1' };
    const result = await runCommand({
      command,
      cwd: ctx.workspace,
      env,
      timeoutMs: params.timeoutMs,
      maxOutputBytes: ctx.terminal.maxOutputBytes,
      clock: ctx.clock,
      signal: ctx.signal,
      // A background process the script started (a fork, `cmd &`) ends with the run, like the script's tool channel.
      endGroup: true,
      ...(params.sandbox ? { sandbox: params.sandbox, readOnly: [dir] } : {}),
      channel: (stream) => {
        counter = serveToolCalls({ stream, tools: params.tools, maxCalls: params.maxToolCalls, signal, refused: params.refused });
      },
    });
    return { result, toolCalls: counter.calls };
  } finally {
    run.abort();
    await rm(dir, { recursive: true, force: true });
  }
}
