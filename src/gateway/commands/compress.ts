import type { Logger } from 'pino';
import type { AIAgent } from '../../agent/agent.js';
import type { PromptSource } from '../../agent/prompt/source.js';
import { shortSessionId } from '../../store/session-id.js';
import type { Store } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import { compressSession, type CompressionDeps } from '../sessions/compress.js';
import { SessionChangedError } from '../../store/errors.js';
import { toChatHistory } from '../sessions/history.js';

/** `/compress`: compresses the chat's session on demand (forced) and says what happened. Never throws. */
export async function compressCommand(params: {
  store: Store;
  sessionKey: string;
  platform: string;
  agent: AIAgent;
  prompts: PromptSource;
  compression: CompressionDeps | undefined;
  busy: boolean;
  signal: AbortSignal;
  scrub: (text: string) => string;
  clock: Clock;
  logger: Logger;
}): Promise<string> {
  const { store, agent } = params;
  if (params.compression === undefined) return 'Compression is not available here (the context length of the model is unknown).';
  if (params.busy) return 'An answer is being written now; send /compress again once it is done (or /stop it first).';
  const session = store.activeSession({ key: params.sessionKey });
  if (session === undefined) return 'Nothing to compress: this chat has no conversation yet.';
  const stored = store.history({ sessionId: session.id });
  const messages = toChatHistory({ messages: stored });
  const systemPrompt = store.sessionPrompt({ sessionId: session.id })?.text ?? '';
  try {
    const done = await compressSession({
      store,
      session,
      platform: params.platform,
      prompts: params.prompts,
      deps: params.compression,
      messages,
      overheadTokens: agent.estimatePromptTokens({ systemPrompt, history: [] }) ?? 0,
      countTokens: (message) => agent.messageTokens({ message }),
      force: true,
      inboxId: null,
      turnMessages: 0,
      // A turn may start (and be answered) while the summary is written: then nothing is switched.
      lastMessageId: stored.at(-1)?.id ?? null,
      signal: params.signal,
      scrub: params.scrub,
      clock: params.clock,
      logger: params.logger,
    });
    const n = (value: number): string => value.toLocaleString('en-US');
    const figures = `~${n(done.before)} → ~${n(done.after)} tokens`;
    if (done.outcome === 'summarised' || done.outcome === 'fallback') {
      const how = done.outcome === 'fallback' ? ' (the summary could not be written: a short note stands in for the older messages)' : '';
      return `Compressed: ${figures}${how}. The conversation goes on in a new session (${shortSessionId({ id: done.session.id })}); the earlier messages stay searchable.`;
    }
    if (done.outcome === 'aborted') return 'Compression was stopped before the summary was written; nothing changed.';
    return `Nothing to compress yet (${figures}): the conversation is short enough to keep word for word.`;
  } catch (error) {
    if (error instanceof SessionChangedError) {
      params.logger.info({ sessionId: session.id }, '/compress: the conversation moved on while compressing; nothing changed');
      return 'The conversation moved on while I was compressing it (a message was answered meanwhile), so nothing changed; send /compress again.';
    }
    params.logger.warn({ err: error }, '/compress failed');
    return 'The conversation could not be compressed; the details are in the gateway log.';
  }
}
