import type { ContextLength } from '../../agent/tokens/context-length.js';
import type { ModelContext } from '../../agent/tokens/model-context.js';
import type { Store } from '../../store/types.js';

/**
 * The context length of the model a session talks to: its /model choice when it has one, else the configured model.
 * Every per-session figure that depends on "the model's context" (/status, the compression threshold, the 85% safety
 * check, the background review's transcript budget) reads it here.
 */
export function sessionContextLength(params: { store: Store; sessionId: string; modelContext: ModelContext }): ContextLength {
  const chosen = params.store.sessionModel({ sessionId: params.sessionId });
  return params.modelContext.current({ model: chosen ?? undefined });
}
