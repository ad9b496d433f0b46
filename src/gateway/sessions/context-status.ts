import type { AIAgent } from '../../agent/agent.js';
import type { ContextLength } from '../../agent/tokens/context-length.js';
import type { Store } from '../../store/types.js';
import { sessionHistory } from './history.js';

/** How full a session's context is: tokens used now vs the model's context length. */
export interface ContextUsage {
  readonly tokens: number;
  /** True when `tokens` is the gateway's estimate (no reported usage for the session yet). */
  readonly estimated: boolean;
  readonly length: ContextLength;
}

/**
 * The session's context use: the prompt tokens reported for its latest model call when known, else the estimate
 * of what the next call would send (stored system prompt and the session's history, as a turn reads it; tools included).
 */
export function sessionContextUsage(params: { store: Store; sessionId: string; agent: AIAgent; length: ContextLength }): ContextUsage | undefined {
  const { store, sessionId, length } = params;
  const reported = store.lastPromptTokens({ sessionId });
  if (reported !== null) return { tokens: reported, estimated: false, length };
  const history = sessionHistory({ store, sessionId });
  const tokens = params.agent.estimatePromptTokens({ systemPrompt: store.sessionPrompt({ sessionId })?.text ?? '', history, within: length.tokens });
  return tokens === undefined ? undefined : { tokens, estimated: true, length };
}

/** "Context: ~12,400 / 128,000 tokens (10%)", marked when it is an estimate. */
export function contextLine(params: { usage: ContextUsage }): string {
  const { tokens, estimated, length } = params.usage;
  const n = (value: number): string => value.toLocaleString('en-US');
  const percent = Math.round((tokens / length.tokens) * 100);
  return `Context: ~${n(tokens)} / ${n(length.tokens)} tokens (${percent}%)${estimated ? ', estimated (no usage reported yet)' : ''}`;
}
