import type { ChatMessage } from '../../agent/messages.js';
import type { CompressedContext } from '../../agent/types.js';
import { windowHistory } from '../../agent/history-window.js';
import type { ToolRegistry } from '../../tools/registry.js';
import { sessionPromptFor, sessionRegistry } from './session-start.js';
import { compressSession } from '../sessions/compress.js';
import { sessionHistory, toChatHistory } from '../sessions/history.js';
import type { OpenTurn } from './open.js';

/** Share of the context length past which the gateway compresses before a turn, whatever the agent's own check does. */
export const SAFETY_SHARE = 0.85;

/** Most stored messages read per turn without compression; the character window then trims further. */
const historyReadLimit = 400;

/** What the model is sent besides the new user text; a compression replaces all three. */
export interface TurnContext {
  systemPrompt: string;
  history: readonly ChatMessage[];
  /** How many of the agent's messages came before this turn (this turn's are written with its inbox id). */
  historyLength: number;
  /** The turn's tools: the agent's and the session's MCP tools (a compression's continuation keeps them). */
  readonly registry: ToolRegistry;
}

/** A compression the agent asks for mid-turn (or the gateway's safety check before it): undefined when under threshold. */
export type TurnCompressor = (params: { messages: readonly ChatMessage[]; systemPrompt: string; force: boolean; signal: AbortSignal; turnMessages: number }) => Promise<CompressedContext | undefined>;

/**
 * The turn's system prompt (built once per session and stored with it, so every model call of the session sends the
 * same one) and history: with compression the whole session (it starts at its compression head and stays under the
 * threshold); without it (runners built without a context length), a bounded read and the character window.
 */
export async function loadContext(params: { turn: OpenTurn }): Promise<TurnContext> {
  const { turn } = params;
  const { store, compression } = turn.deps;
  const prompt = await sessionPromptFor({ turn });
  const systemPrompt = prompt.text;
  const registry = sessionRegistry({ deps: turn.deps, prompt, platform: turn.event.platform });
  turn.registry = registry;
  const history =
    compression === undefined
      ? windowHistory({ messages: toChatHistory({ messages: store.history({ sessionId: turn.session.id, limit: historyReadLimit }) }), maxChars: turn.deps.historyMaxChars })
      : sessionHistory({ store, sessionId: turn.session.id });
  return { systemPrompt, history, historyLength: history.length, registry };
}

/**
 * Compresses the turn's session; on a compression the turn moves to the continuation session (its tools follow), and
 * `context` takes the new system prompt and the point where this turn's messages start.
 */
export function sessionCompressor(params: { turn: OpenTurn; context: TurnContext }): TurnCompressor {
  const { turn, context } = params;
  const { deps } = turn;
  return async (p) => {
    if (deps.compression === undefined) return undefined;
    const done = await compressSession({
      store: deps.store,
      session: turn.session,
      platform: turn.event.platform,
      prompts: deps.prompts,
      deps: deps.compression,
      messages: p.messages,
      overheadTokens: deps.agent.estimatePromptTokens({ systemPrompt: p.systemPrompt, history: [], registry: context.registry }) ?? 0,
      countTokens: (message) => deps.agent.messageTokens({ message }),
      force: p.force,
      inboxId: turn.row.id,
      turnMessages: p.turnMessages,
      signal: p.signal,
      scrub: deps.scrub,
      clock: deps.clock,
      logger: turn.logger,
    });
    if (done.outcome === 'under_threshold') return undefined;
    const switched = done.session.id !== turn.session.id;
    turn.session = done.session;
    context.systemPrompt = done.systemPrompt;
    context.historyLength = done.turnStart;
    // Tools key on the current session (session_search leaves it out): they follow the switch for the rest of the turn.
    return { messages: done.messages, systemPrompt: done.systemPrompt, ...(switched ? { toolContext: { ...deps.toolContext, ...turn.tools, sessionId: turn.session.id } } : {}) };
  };
}

/** The gateway's safety check: a request past 0.85 of the context is compressed before the agent runs. */
export async function safetyCompress(params: { turn: OpenTurn; context: TurnContext; compress: TurnCompressor }): Promise<void> {
  const { turn, context } = params;
  const { compression, agent } = turn.deps;
  if (compression === undefined || turn.signal.aborted) return;
  // The context of the model the session talks to (its /model choice, else the configured one).
  const contextTokens = compression.contextLength({ sessionId: turn.session.id });
  const { registry } = context;
  const estimate = agent.estimatePromptTokens({ systemPrompt: context.systemPrompt, history: context.history, within: SAFETY_SHARE * contextTokens, registry }) ?? 0;
  // When the fixed part alone does not fit, no compression helps: the agent ends the turn with a clear note.
  const fixed = estimate > SAFETY_SHARE * contextTokens ? (agent.estimatePromptTokens({ systemPrompt: context.systemPrompt, history: [], within: contextTokens, registry }) ?? 0) : 0;
  if (estimate > SAFETY_SHARE * contextTokens && fixed < contextTokens) {
    const done = await params.compress({ messages: context.history, systemPrompt: context.systemPrompt, force: false, signal: turn.signal, turnMessages: 0 });
    if (done !== undefined) context.history = done.messages;
  }
  context.historyLength = context.history.length;
}
