import type { ToolDefinition } from '../tool.js';

/** Tools an execute_code script may never call, whatever their concurrency policy (they need the model or the chat). */
export const NOT_CALLABLE_FROM_CODE: ReadonlySet<string> = new Set(['delegate_task', 'clarify', 'send_message', 'memory', 'execute_code']);

/**
 * The tools an execute_code script may call: the parallel-safe and path-scoped (file) tools plus `terminal`, never
 * delegate_task, clarify, send_message, memory or execute_code itself.
 */
export function codeCallableTools(params: { tools: readonly ToolDefinition[] }): ToolDefinition[] {
  return params.tools.filter((tool) => {
    if (NOT_CALLABLE_FROM_CODE.has(tool.name)) return false;
    return tool.name === 'terminal' || tool.parallel === 'safe' || typeof tool.parallel === 'object';
  });
}
