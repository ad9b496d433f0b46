import type { AIAgent } from '../../agent/agent.js';
import { contextBreakdownLines } from '../../agent/context-breakdown.js';
import { sharedTokenMeter } from '../../agent/tokens/meter.js';
import type { ModelContext } from '../../agent/tokens/model-context.js';
import type { Store } from '../../store/types.js';
import { sessionContextLength } from '../sessions/context-length.js';
import { sessionHistory } from '../sessions/history.js';
import { sessionRegistry } from '../turns/session-start.js';
import type { TurnDeps } from '../turns/deps.js';

/**
 * /context: what the chat's next request is made of (each prompt layer, each tool's schema, the summary, the rest of
 * the history) in tokens and as a share of the context of the model the conversation talks to.
 */
export function contextReply(params: {
  store: Store;
  sessionKey: string;
  platform: string;
  agent: AIAgent;
  tools: Pick<TurnDeps, 'mcp' | 'toolsets'>;
  modelContext: ModelContext | undefined;
}): string {
  const { store, agent } = params;
  const session = store.activeSession({ key: params.sessionKey });
  if (session === undefined) return 'No conversation here yet: your first message starts one (`hermes prompt show --context` shows what a new one sends).';
  const prompt = store.sessionPrompt({ sessionId: session.id });
  if (prompt === undefined) return 'This conversation has no system prompt yet: its first answer builds it.';
  if (params.modelContext === undefined) return 'The context length of the model is not known here, so the request cannot be measured against it.';
  const registry = sessionRegistry({ deps: { agent, ...params.tools }, prompt, platform: params.platform });
  const model = store.sessionModel({ sessionId: session.id }) ?? agent.route.targets[0]?.name ?? '';
  return contextBreakdownLines({
    model,
    prompt,
    tools: registry.toOpenAITools(),
    history: sessionHistory({ store, sessionId: session.id }),
    contextTokens: sessionContextLength({ store, sessionId: session.id, modelContext: params.modelContext }).tokens,
    count: (request) => sharedTokenMeter.estimate({ request }).tokens,
  }).join('\n');
}
