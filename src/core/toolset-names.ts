/**
 * Hermes Agent's toolset names: what a delegate_task task's `toolsets` and a profile's `toolsets` /
 * `platform_toolsets` may name.
 */
export const TOOLSET_NAMES = ['file', 'terminal', 'search', 'session_search', 'web', 'skills', 'cronjob', 'memory', 'delegation', 'code_execution', 'messaging', 'clarify', 'vision'] as const;

/** One of Hermes Agent's toolsets (a group of tools a delegate_task child may be given, or a profile enables). */
export type ToolsetName = (typeof TOOLSET_NAMES)[number];

/** Every MCP server's tools (`mcp`), or one server's (`mcp-<server>`). */
const MCP_SET = /^mcp(?:-[A-Za-z0-9][A-Za-z0-9_.-]*)?$/;

/** What a profile's `toolsets` / `platform_toolsets` may name: Hermes Agent's sets, `all`, `mcp` and `mcp-<server>`. */
export function isToolsetChoice(params: { name: string }): boolean {
  return params.name === 'all' || (TOOLSET_NAMES as readonly string[]).includes(params.name) || MCP_SET.test(params.name);
}
