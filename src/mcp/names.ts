import { globToRegExp } from '../tools/builtin/glob.js';

/** Longest tool name the chat.completions API takes. */
export const MAX_TOOL_NAME = 64;

/** `mcp_<server>_<tool>` with every character but a-z, A-Z, 0-9 and `_` made `_` (Hermes Agent's form); undefined past 64 characters. */
export function mcpToolName(params: { server: string; tool: string }): string | undefined {
  const name = `mcp_${params.server}_${params.tool}`.replace(/[^A-Za-z0-9_]/g, '_');
  return name.length <= MAX_TOOL_NAME ? name : undefined;
}

/**
 * Whether a server's tool is offered, by its own name (not the mcp_ one): an `include` list names the only tools
 * offered, `exclude` takes tools out, and a tool both lists match is offered (include wins).
 */
export function toolWanted(params: { tool: string; include: readonly string[]; exclude: readonly string[] }): boolean {
  // search_files' glob dialect (`*`, `?`, `{a,b}`, `[...]`); MCP tool names are letters, digits, `_`, `-` and `.`
  // (the spec's advice), with no "/" for `*` to stop at.
  const matches = (patterns: readonly string[]): boolean => patterns.some((pattern) => globToRegExp({ glob: pattern }).test(params.tool));
  if (params.include.length > 0) return matches(params.include);
  return !matches(params.exclude);
}
