import type { ToolDefinition } from '../tool.js';

/** Whether an execute_code script may call `tool`: its `codeCallable`, else true for parallel-safe and path-scoped tools. */
export function isCodeCallable(tool: ToolDefinition): boolean {
  return tool.codeCallable ?? tool.parallel !== 'never';
}

/**
 * The tools an execute_code script may call (see ToolDefinition.codeCallable): the parallel-safe and path-scoped
 * (file) tools plus those that say `codeCallable: true` (terminal), never those that say false.
 */
export function codeCallableTools(params: { tools: readonly ToolDefinition[] }): ToolDefinition[] {
  return params.tools.filter(isCodeCallable);
}

/** The names of the tools only the model may call directly (`codeCallable: false`): a script calling one is told so. */
export function directOnlyNames(params: { tools: readonly ToolDefinition[] }): string[] {
  return params.tools.filter((tool) => tool.codeCallable === false).map((tool) => tool.name);
}
