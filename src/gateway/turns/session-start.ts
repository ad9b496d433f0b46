import type { SessionPrompt } from '../../store/types.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { TurnDeps } from './deps.js';
import type { OpenTurn } from './open.js';

/**
 * The session's stored system prompt; a session that has none yet gets one built and stored now, with its MCP tools
 * frozen beside it (the servers connected now; see McpHub.newSession), so every request of the session sends the same
 * prompt and tool list.
 */
export async function sessionPromptFor(params: { turn: OpenTurn }): Promise<SessionPrompt> {
  const { turn } = params;
  const { store, prompts, mcp, agent, toolsets } = turn.deps;
  const session = turn.session;
  const stored = store.sessionPrompt({ sessionId: session.id });
  if (stored !== undefined) return stored;
  const platform = turn.event.platform;
  // Every built-in tool's name is taken, offered on this platform or not: an MCP tool never shadows one.
  const taken = new Set(agent.registry.list().map((tool) => tool.name));
  const wanted = (server: string): boolean => toolsets?.mcpWanted({ platform, server }) ?? true;
  const extraTools = await mcp?.newSession({ taken, signal: turn.signal, wanted });
  const prompt = prompts.build({ platform: turn.event.platform, startedAt: session.startedAt, ...(extraTools === undefined ? {} : { extraTools }) });
  store.setSessionPrompt({ sessionId: session.id, prompt });
  turn.logger.info({ sessionId: session.id, chars: prompt.text.length, layers: prompt.layers }, 'built the system prompt of a new session');
  return prompt;
}

/**
 * The tools of a session's turns on a platform: the agent's that the platform's tool sets enable, then the MCP tools
 * frozen with its prompt (see sessionPromptFor).
 */
export function sessionRegistry(params: { deps: Pick<TurnDeps, 'agent' | 'mcp' | 'toolsets'>; prompt: SessionPrompt | undefined; platform: string }): ToolRegistry {
  const { agent, toolsets } = params.deps;
  const base = toolsets?.registryFor({ base: agent.registry, platform: params.platform }) ?? agent.registry;
  const extra = params.deps.mcp?.toolsFor({ extraTools: params.prompt?.extraTools }) ?? [];
  return base.withTools({ extra });
}
