import { ToolRegistry } from '../../tools/registry.js';
import { ToolError } from '../../core/errors.js';

/** Tools a child of delegate_task never gets, whatever its toolsets say. */
export const CHILD_BLOCKED_TOOLS: readonly string[] = ['delegate_task', 'clarify', 'memory', 'send_message', 'execute_code'];

/** The tool groups a task's `toolsets` may name (Hermes Agent's names), and the tools each stands for where they exist. */
export const TOOLSETS: Readonly<Record<string, readonly string[]>> = {
  file: ['read_file', 'write_file', 'patch', 'search_files'],
  terminal: ['terminal'],
  search: ['search_files', 'session_search'],
  session_search: ['session_search'],
  web: ['web_search', 'web_extract'],
  skills: ['skills_list', 'skill_view', 'skill_manage'],
  cronjob: ['cronjob'],
};

/**
 * The registry a child runs with: the parent's tools without the blocked ones, and with `toolsets` only those groups'.
 * Throws ToolError for a toolset name it does not know or one whose tools this agent does not have.
 */
export function childRegistry(params: { parent: ToolRegistry; toolsets?: readonly string[] | undefined }): ToolRegistry {
  const allowed = params.parent.list().filter((tool) => !CHILD_BLOCKED_TOOLS.includes(tool.name));
  if (params.toolsets === undefined) return new ToolRegistry({ tools: allowed });
  const wanted = new Set<string>();
  for (const raw of params.toolsets) {
    const name = raw.trim().toLowerCase();
    const tools = TOOLSETS[name];
    if (tools === undefined) throw new ToolError(`unknown toolset "${raw}"; known toolsets: ${Object.keys(TOOLSETS).join(', ')}.`);
    const present = tools.filter((tool) => allowed.some((t) => t.name === tool));
    if (present.length === 0) throw new ToolError(`toolset "${raw}" has no tools in this agent (it would need ${tools.join(' or ')}); leave it out.`);
    for (const tool of present) wanted.add(tool);
  }
  return new ToolRegistry({ tools: allowed.filter((tool) => wanted.has(tool.name)) });
}
