import { z } from 'zod';

/**
 * What an offered MCP tool is: one of the server's own tools, or a wrapper over its resources or prompts (offered
 * only where the server has them and `tools.resources` / `tools.prompts` allow).
 */
export type McpToolKind = 'tool' | 'list_resources' | 'read_resource' | 'list_prompts' | 'get_prompt';

/** One tool a session was offered, as its server listed it (enough to make the same definition again). */
export interface McpSnapshotTool {
  readonly server: string;
  readonly kind: McpToolKind;
  /** The server's own name of the tool (for a wrapper, the wrapper's: list_resources, ...). */
  readonly tool: string;
  /** The name the model calls: mcp_<server>_<tool>. */
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  readonly readOnly: boolean;
}

/** A configured server a session went without, and why (its prompt says so). */
export interface McpUnavailableServer {
  readonly name: string;
  readonly cause: string;
}

/**
 * The MCP tools of one session, frozen when it started (stored with its system prompt), so every request of the
 * session sends the same tool list even when a server's tools change meanwhile: a change reaches the next session.
 */
export interface McpSnapshot {
  readonly tools: readonly McpSnapshotTool[];
  readonly unavailable: readonly McpUnavailableServer[];
}

const snapshotSchema = z.object({
  tools: z.array(
    z.object({
      server: z.string(),
      kind: z.enum(['tool', 'list_resources', 'read_resource', 'list_prompts', 'get_prompt']),
      tool: z.string(),
      name: z.string(),
      description: z.string(),
      inputSchema: z.record(z.string(), z.unknown()),
      readOnly: z.boolean(),
    }),
  ),
  unavailable: z.array(z.object({ name: z.string(), cause: z.string() })),
});

/** A session with no MCP tools (its profile had no servers when it started). */
export const EMPTY_SNAPSHOT: McpSnapshot = { tools: [], unavailable: [] };

/** The stored form of a snapshot. */
export function snapshotText(params: { snapshot: McpSnapshot }): string {
  return JSON.stringify(params.snapshot);
}

/** A stored snapshot; undefined when the text is not one (the session then goes on without MCP tools). */
export function parseSnapshot(params: { text: string }): McpSnapshot | undefined {
  try {
    const parsed = snapshotSchema.safeParse(JSON.parse(params.text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** The system prompt's note on the servers a session goes without ('' when every server was connected). */
export function unavailableMcpNote(params: { unavailable: readonly McpUnavailableServer[] }): string {
  if (params.unavailable.length === 0) return '';
  const lines = params.unavailable.map((server) => `- ${server.name}: ${server.cause}`);
  return [
    '## MCP servers not available',
    'These configured MCP servers were not connected when this conversation started, so their tools are missing here. If the user asks for something they would do, say the server is unavailable (and why) rather than pretending; their tools come back in a new conversation (/new) once the server is up.',
    ...lines,
  ].join('\n');
}
