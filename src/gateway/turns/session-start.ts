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
  const { store, prompts, mcp, agent } = turn.deps;
  const session = turn.session;
  const stored = store.sessionPrompt({ sessionId: session.id });
  if (stored !== undefined) return stored;
  const taken = new Set(agent.registry.list().map((tool) => tool.name));
  const extraTools = await mcp?.newSession({ taken, signal: turn.signal });
  const prompt = prompts.build({ platform: turn.event.platform, startedAt: session.startedAt, ...(extraTools === undefined ? {} : { extraTools }) });
  store.setSessionPrompt({ sessionId: session.id, prompt });
  turn.logger.info({ sessionId: session.id, chars: prompt.text.length, layers: prompt.layers }, 'built the system prompt of a new session');
  return prompt;
}

/** The tools of a session's turns: the agent's, then the MCP tools frozen with its prompt (see sessionPromptFor). */
export function sessionRegistry(params: { deps: Pick<TurnDeps, 'agent' | 'mcp'>; prompt: SessionPrompt | undefined }): ToolRegistry {
  const base = params.deps.agent.registry;
  const extra = params.deps.mcp?.toolsFor({ extraTools: params.prompt?.extraTools }) ?? [];
  return base.withTools({ extra });
}
