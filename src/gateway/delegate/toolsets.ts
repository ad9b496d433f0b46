import { BUILTIN_TOOLS } from '../../tools/builtin/index.js';
import { ToolRegistry } from '../../tools/registry.js';
import { TOOLSET_NAMES, type ToolDefinition, type ToolsetName } from '../../tools/tool.js';
import { ToolError } from '../../core/errors.js';

/** Each toolset's tools: those whose definitions name it (`toolsets`), in order. */
export function toolsetTools(params: { tools: readonly ToolDefinition[] }): ReadonlyMap<ToolsetName, readonly string[]> {
  const members = (set: ToolsetName): string[] => params.tools.filter((tool) => tool.toolsets?.includes(set) === true).map((tool) => tool.name);
  return new Map(TOOLSET_NAMES.map((set) => [set, members(set)]));
}

/** The tool groups a task's `toolsets` may name (Hermes Agent's names), and the built-in tools each stands for where they exist. */
export const TOOLSETS: ReadonlyMap<ToolsetName, readonly string[]> = toolsetTools({ tools: BUILTIN_TOOLS });

function isToolsetName(name: string): name is ToolsetName {
  return (TOOLSET_NAMES as readonly string[]).includes(name);
}

/**
 * The registry a child runs with: the parent's tools without the blocked ones (`childBlocked`), and with `toolsets`
 * only those groups' (the built-in tools' and the parent's own that name them). Throws ToolError for a toolset name it
 * does not know or one whose tools this agent does not have.
 */
export function childRegistry(params: { parent: ToolRegistry; toolsets?: readonly string[] | undefined }): ToolRegistry {
  const allowed = params.parent.list().filter((tool) => tool.childBlocked !== true);
  if (params.toolsets === undefined) return new ToolRegistry({ tools: allowed });
  // The built-in tools name a toolset's tools even where this agent lacks them (skills off: "it would need skills_list …").
  const sets = toolsetTools({ tools: [...BUILTIN_TOOLS, ...params.parent.list()] });
  const wanted = new Set<string>();
  for (const raw of params.toolsets) {
    const name = raw.trim().toLowerCase();
    if (!isToolsetName(name)) throw new ToolError(`unknown toolset "${raw}"; known toolsets: ${TOOLSET_NAMES.join(', ')}.`);
    const tools = sets.get(name) ?? [];
    const present = tools.filter((tool) => allowed.some((t) => t.name === tool));
    if (present.length === 0) throw new ToolError(`toolset "${raw}" has no tools in this agent (it would need ${tools.join(' or ')}); leave it out.`);
    for (const tool of present) wanted.add(tool);
  }
  return new ToolRegistry({ tools: allowed.filter((tool) => wanted.has(tool.name)) });
}
