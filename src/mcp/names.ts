/** Longest tool name the chat.completions API takes. */
export const MAX_TOOL_NAME = 64;

/** `mcp_<server>_<tool>` with every character but a-z, A-Z, 0-9 and `_` made `_` (Hermes Agent's form); undefined past 64 characters. */
export function mcpToolName(params: { server: string; tool: string }): string | undefined {
  const name = `mcp_${params.server}_${params.tool}`.replace(/[^A-Za-z0-9_]/g, '_');
  return name.length <= MAX_TOOL_NAME ? name : undefined;
}

/** A glob of tools.include / tools.exclude (`*` any run of characters, `?` one) as a whole-name test. */
function globTest(params: { pattern: string }): (name: string) => boolean {
  if (!/[*?]/.test(params.pattern)) return (name) => name === params.pattern;
  const source = params.pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
  const re = new RegExp(`^${source}$`);
  return (name) => re.test(name);
}

/**
 * Whether a server's tool is offered, by its own name (not the mcp_ one): an `include` list names the only tools
 * offered, `exclude` takes tools out, and a tool both lists match is offered (include wins).
 */
export function toolWanted(params: { tool: string; include: readonly string[]; exclude: readonly string[] }): boolean {
  const matches = (patterns: readonly string[]): boolean => patterns.some((pattern) => globTest({ pattern })(params.tool));
  if (params.include.length > 0) return matches(params.include);
  return !matches(params.exclude);
}
