import type { ToolCallsCapability } from '../tools/capabilities.js';
import { codeCallableTools } from '../tools/code/callable.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { ToolContext } from '../tools/tool.js';

/**
 * The agent's own tools for `execute_code`'s scripts: the registry's tools a script may call (ToolDefinition.codeCallable:
 * the parallel-safe and path-scoped tools plus `terminal`; never delegate_task, clarify, send_message, memory,
 * execute_code). A call is parsed and validated like a model's (registry.execute), runs with the round's tool context (so the terminal's hard block and approval gate
 * apply) and its result is scrubbed like any tool result.
 */
export function toolCallsFor(params: { registry: ToolRegistry; ctx: Omit<ToolContext, 'signal'>; scrub?: ((text: string) => string) | undefined }): ToolCallsCapability {
  const { registry, ctx, scrub } = params;
  const names = codeCallableTools({ tools: registry.list() }).map((tool) => tool.name);
  let seq = 0;
  return {
    names,
    call: async ({ name, args, signal }) => {
      if (!names.includes(name)) return { content: `Error: ${name} cannot be called from execute_code.`, isError: true };
      seq += 1;
      const call = { id: `execute_code-${seq}`, name, arguments: JSON.stringify(args ?? {}) };
      const result = await registry.execute({ call, ctx: { ...ctx, signal } });
      return { content: scrub ? scrub(result.content) : result.content, isError: result.isError };
    },
  };
}
