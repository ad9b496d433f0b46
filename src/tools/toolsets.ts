import type { ToolRegistry } from './registry.js';
import { TOOLSET_NAMES } from '../core/toolset-names.js';
import type { ToolDefinition } from './tool.js';

/** Contexts at most this long (tokens) get LEAN_TOOLSETS when the profile names no toolsets: every schema costs tokens on every call. */
export const SMALL_CONTEXT_TOKENS = 16_384;

/** The sets a small-context model gets by default (no delegation, code execution, skills or MCP servers). */
export const LEAN_TOOLSETS: readonly string[] = ['file', 'terminal', 'memory', 'session_search', 'clarify'];

/** The sets in force for one platform, and where they come from (what /tools and `hermes tools list` say). */
export interface PlatformToolsets {
  readonly sets: ReadonlySet<string>;
  readonly source: 'platform_toolsets' | 'toolsets' | 'lean default' | 'default';
}

/**
 * Whether a tool is enabled by the sets: `all`, or one of the sets it names. A tool naming no set (a host program's
 * own, given to buildGateway) is always offered: the sets choose among the built-in tools.
 */
export function toolEnabled(params: { tool: Pick<ToolDefinition, 'toolsets'>; sets: ReadonlySet<string> }): boolean {
  const own = params.tool.toolsets ?? [];
  if (params.sets.has('all') || own.length === 0) return true;
  return own.some((set) => params.sets.has(set));
}

/** Whether an MCP server's tools are enabled by the sets: `all`, `mcp` or `mcp-<server>`. */
export function mcpServerEnabled(params: { server: string; sets: ReadonlySet<string> }): boolean {
  return params.sets.has('all') || params.sets.has('mcp') || params.sets.has(`mcp-${params.server}`);
}

/**
 * A profile's tool sets (`toolsets`, Hermes Agent's `platform_toolsets`): which tools each platform's turns offer.
 * Without `toolsets` a model whose context is at most SMALL_CONTEXT_TOKENS gets LEAN_TOOLSETS, any other every tool.
 */
export class ToolsetPolicy {
  private readonly toolsets: readonly string[] | undefined;
  private readonly platforms: Readonly<Record<string, readonly string[]>>;
  private readonly contextTokens: () => number | undefined;
  /** The registry each base registry gives per set of sets (made once: the tools' schemas are sent as they were). */
  private readonly made = new WeakMap<ToolRegistry, Map<string, ToolRegistry>>();

  constructor(params: { toolsets: readonly string[] | undefined; platforms: Readonly<Record<string, readonly string[]>>; contextTokens: () => number | undefined }) {
    this.toolsets = params.toolsets;
    this.platforms = params.platforms;
    this.contextTokens = params.contextTokens;
  }

  /** The sets a platform's turns use. */
  setsFor(params: { platform: string }): PlatformToolsets {
    const own = this.platforms[params.platform];
    if (own !== undefined) return { sets: new Set(own), source: 'platform_toolsets' };
    if (this.toolsets !== undefined) return { sets: new Set(this.toolsets), source: 'toolsets' };
    const tokens = this.contextTokens();
    if (tokens !== undefined && tokens <= SMALL_CONTEXT_TOKENS) return { sets: new Set(LEAN_TOOLSETS), source: 'lean default' };
    return { sets: new Set(['all']), source: 'default' };
  }

  /** `base` with only the tools a platform's sets enable (the same registry when they enable all). */
  registryFor(params: { base: ToolRegistry; platform: string }): ToolRegistry {
    const { sets } = this.setsFor(params);
    if (sets.has('all')) return params.base;
    const key = [...sets].sort().join(',');
    let byKey = this.made.get(params.base);
    if (byKey === undefined) {
      byKey = new Map();
      this.made.set(params.base, byKey);
    }
    let registry = byKey.get(key);
    if (registry === undefined) {
      registry = params.base.filtered({ keep: (tool) => toolEnabled({ tool, sets }) });
      byKey.set(key, registry);
    }
    return registry;
  }

  /** Whether a platform's new sessions get an MCP server's tools. */
  mcpWanted(params: { platform: string; server: string }): boolean {
    return mcpServerEnabled({ server: params.server, sets: this.setsFor(params).sets });
  }
}

/** Why a platform has its sets, in words. */
function sourceText(params: { platform: string; source: PlatformToolsets['source'] }): string {
  switch (params.source) {
    case 'platform_toolsets':
      return `platform_toolsets.${params.platform} in config.yaml`;
    case 'toolsets':
      return 'toolsets in config.yaml';
    case 'lean default':
      return `the lean default: the model's context is at most ${SMALL_CONTEXT_TOKENS.toLocaleString('en-US')} tokens and config.yaml names no toolsets`;
    case 'default':
      return 'the default: every tool';
  }
}

/**
 * The lines /tools and `hermes tools list` show: each set (✓ on, ✗ off) with its tools here, then each MCP server's
 * set. `tools`: the built-in tools this profile has; `mcp`: its servers, each with a word on its tools.
 */
export function toolsetLines(params: {
  platform: string;
  toolsets: PlatformToolsets;
  tools: readonly Pick<ToolDefinition, 'name' | 'toolsets'>[];
  mcp: readonly { readonly name: string; readonly detail: string }[];
}): string[] {
  const { sets } = params.toolsets;
  const mark = (on: boolean): string => (on ? '✓' : '✗');
  const lines = [`Tool sets on ${params.platform} (${sourceText({ platform: params.platform, source: params.toolsets.source })}):`];
  for (const set of TOOLSET_NAMES) {
    const members = params.tools.filter((tool) => tool.toolsets?.includes(set) === true).map((tool) => tool.name);
    const on = sets.has('all') || sets.has(set);
    lines.push(`${mark(on)} ${set}: ${members.length > 0 ? members.join(', ') : 'no tools here'}`);
  }
  for (const server of params.mcp) lines.push(`${mark(mcpServerEnabled({ server: server.name, sets }))} mcp-${server.name}: ${server.detail}`);
  return lines;
}
