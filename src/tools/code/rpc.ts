import type { Duplex } from 'node:stream';
import type { ToolCallsCapability } from '../capabilities.js';
import { errorMessage } from '../../util/error-text.js';

/** Longest request line a script may send, in characters (a write_file of a large file fits; a runaway one does not). */
const MAX_LINE_CHARS = 8 * 1024 * 1024;

/** What a script asks for, one JSON object per line. */
interface RpcRequest {
  readonly id: unknown;
  readonly tool: string;
  readonly args: unknown;
}

/** How many calls a run's channel took, for the tool's status line. */
export interface RpcCounter {
  /** Calls that ran (refused ones not counted). */
  calls: number;
}

/**
 * Serves one execute_code run's tool calls on its private channel: each line `{id, tool, args}` gets one line
 * `{id, ok: true, result}` or `{id, ok: false, error}` back, in order, one call at a time. Only `tools.names` run (each
 * through `tools.call`, so validated, approval-gated and scrubbed like the model's), at most `maxCalls` of them; the
 * rest get an error the script sees (`refused`, the tools only the model may call, are named as such). `signal` ends
 * the run: calls in flight are aborted and nothing more runs.
 */
export function serveToolCalls(params: { stream: Duplex; tools: ToolCallsCapability; maxCalls: number; signal: AbortSignal; refused?: readonly string[] }): RpcCounter {
  const { stream, tools, signal } = params;
  const counter: RpcCounter = { calls: 0 };
  let pending = '';
  let refusedAll = false;
  let queue: Promise<void> = Promise.resolve();
  const reply = (line: Record<string, unknown>): void => {
    if (signal.aborted || stream.destroyed || !stream.writable) return;
    stream.write(`${JSON.stringify(line)}\n`);
  };
  const handle = async (raw: string): Promise<void> => {
    const request = parseRequest(raw);
    if (typeof request === 'string') return reply({ id: null, ok: false, error: request });
    const { id } = request;
    const refusal = refusalFor({ name: request.tool, names: tools.names, refused: params.refused ?? [], calls: counter.calls, maxCalls: params.maxCalls });
    if (refusal !== undefined) return reply({ id, ok: false, error: refusal });
    counter.calls += 1;
    try {
      const result = await tools.call({ name: request.tool, args: request.args, signal });
      if (result.isError) reply({ id, ok: false, error: result.content });
      else reply({ id, ok: true, result: result.content });
    } catch (error) {
      // ToolCallsCapability never rejects; should one, the script still gets an answer and the queue goes on.
      reply({ id, ok: false, error: `${request.tool} failed: ${errorMessage(error)}` });
    }
  };
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    if (refusedAll) return;
    pending += chunk;
    for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
      const line = pending.slice(0, end);
      pending = pending.slice(end + 1);
      if (line.trim() === '') continue;
      queue = queue.then(() => (signal.aborted ? undefined : handle(line)));
    }
    if (pending.length > MAX_LINE_CHARS) {
      pending = '';
      refusedAll = true;
      queue = queue.then(() => {
        reply({ id: null, ok: false, error: `a tool call over ${MAX_LINE_CHARS} characters was refused; the channel is closed` });
        stream.end();
      });
    }
  });
  // The script's end of the channel going away (it exited) is normal; a reset is no failure of the run.
  stream.on('error', () => undefined);
  return counter;
}

function parseRequest(raw: string): RpcRequest | string {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return 'a tool call must be one JSON object per line: {"id": 1, "tool": "read_file", "args": {...}}';
  }
  if (typeof value !== 'object' || value === null) return 'a tool call must be a JSON object';
  const { id, tool, args } = value as Record<string, unknown>;
  if (typeof tool !== 'string' || tool === '') return 'a tool call needs "tool": the tool\'s name';
  return { id: id ?? null, tool, args: args ?? {} };
}

/** Why a call may not run, or undefined when it may. */
function refusalFor(params: { name: string; names: readonly string[]; refused: readonly string[]; calls: number; maxCalls: number }): string | undefined {
  const { name, names, refused } = params;
  if (refused.includes(name)) {
    return `${name} cannot be called from execute_code (${listed(refused)} are only for you to call directly, outside the script). Callable here: ${names.join(', ')}.`;
  }
  if (!names.includes(name)) return `${name} is not a tool that execute_code can call. Callable here: ${names.join(', ')}.`;
  if (params.calls >= params.maxCalls) {
    return `this script already made ${params.maxCalls} tool calls, the most one execute_code run may make (tools.code_execution.max_tool_calls); no more run.`;
  }
  return undefined;
}

/** "a, b and c" ("a" alone, "a and b"). */
function listed(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}
