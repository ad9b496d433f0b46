import type { Logger } from 'pino';
import { compressHistory, isSummaryMessage, type CompressOutcome, type Summarise } from '../../agent/compress/index.js';
import type { ChatMessage } from '../../agent/messages.js';
import type { PromptSource } from '../../agent/prompt/source.js';
import { scrubStoredMessage } from '../../store/scrub-message.js';
import type { Store, SessionRow } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import { toStoredMessage } from './history.js';

/** The gateway's compression settings (config `compression`, the context length in force, the summariser). */
export interface CompressionDeps {
  /** Share of the context length at which the agent compresses (compression.threshold). */
  readonly threshold: number;
  /** compression.tail_ratio. */
  readonly tailRatio: number;
  /** compression.summary_max_tokens. */
  readonly summaryMaxTokens: number;
  /** The context length in tokens now of the model the session talks to (its /model choice, else the configured one). */
  readonly contextLength: (params: { sessionId: string }) => number;
  /** Writes the summary: auxiliary.model when set, else the main model (non-streaming; the request's `model`: the session's /model choice). */
  readonly summarise: Summarise;
}

/**
 * The estimated request size compression works to: `share` × the context length; when the fixed part of a request
 * (system prompt + tool schemas) alone passes that, no history cut can get under it, so the fixed part plus `share`
 * of the room left instead (a target compression can reach, short of the context length).
 */
export function compressionThresholdTokens(params: { share: number; contextTokens: number; fixedTokens: number }): number {
  const { share, contextTokens, fixedTokens } = params;
  const plain = Math.floor(share * contextTokens);
  if (fixedTokens < plain) return plain;
  return Math.floor(fixedTokens + share * Math.max(0, contextTokens - fixedTokens));
}

/** What one session compression did. */
export interface SessionCompression {
  /** How compressHistory ended. */
  readonly outcome: CompressOutcome;
  /** Estimated tokens before and after. */
  readonly before: number;
  readonly after: number;
  /** The session the conversation goes on in (a new one when the middle was summarised). */
  readonly session: SessionRow;
  /** Its system prompt. */
  readonly systemPrompt: string;
  /** The messages to go on with. */
  readonly messages: ChatMessage[];
  /** Index in `messages` of the first message of the running turn (its length when none). */
  readonly turnStart: number;
}

/**
 * Compresses a session's conversation; when the middle was summarised (or replaced by the fallback note), ends the
 * session and continues in a new one whose parent is the old one (step 4): the summary and the tail are written into
 * it, its system prompt is rebuilt (fresh memory). The old session's raw messages stay in the store and in search.
 * `turnMessages`: how many of the last messages belong to the running turn (written with its inbox id, so a replay
 * of the turn removes them rather than seeing them twice).
 */
export async function compressSession(params: {
  store: Store;
  session: SessionRow;
  platform: string;
  prompts: PromptSource;
  deps: CompressionDeps;
  messages: readonly ChatMessage[];
  overheadTokens: number;
  countTokens: (message: ChatMessage) => number;
  force: boolean;
  inboxId: number | null;
  turnMessages: number;
  /** The id of the newest stored message `messages` were read up to (null: none): the switch is refused when more came. */
  lastMessageId?: number | null;
  signal: AbortSignal;
  scrub: (text: string) => string;
  clock: Clock;
  logger: Logger;
}): Promise<SessionCompression> {
  const { store, session, deps } = params;
  const result = await compressHistory({
    messages: params.messages,
    countTokens: params.countTokens,
    threshold: compressionThresholdTokens({ share: deps.threshold, contextTokens: deps.contextLength({ sessionId: session.id }), fixedTokens: params.overheadTokens }),
    overheadTokens: params.overheadTokens,
    tailRatio: deps.tailRatio,
    summaryMaxTokens: deps.summaryMaxTokens,
    // Without auxiliary.model the main model writes it: the one the session talks to.
    summarise: (request) => deps.summarise({ ...request, model: store.sessionModel({ sessionId: session.id }) ?? undefined }),
    signal: params.signal,
    force: params.force,
  });
  const { before, after } = result.stats;
  const stored = store.sessionPrompt({ sessionId: session.id });
  if (result.outcome !== 'summarised' && result.outcome !== 'fallback') {
    const turnStart = result.messages.length - Math.min(params.turnMessages, result.messages.length);
    return { outcome: result.outcome, before, after, session, systemPrompt: stored?.text ?? '', messages: result.messages, turnStart };
  }
  if (result.error !== undefined) params.logger.warn({ error: result.error, sessionId: session.id }, 'the compression summary failed; the fallback note stands in for the middle');
  const summaryAt = result.messages.findIndex((m) => isSummaryMessage(m));
  const firstTurnMessage = result.messages.length - Math.min(params.turnMessages, result.messages.length - Math.max(0, summaryAt + 1));
  const rows = result.messages.map((message, index) => {
    const row = toStoredMessage({ message, sessionId: session.id, inboxId: 0 });
    return scrubStoredMessage({ message: { ...row, inboxId: index >= firstTurnMessage ? params.inboxId : null }, scrub: params.scrub });
  });
  // The prompt is built before the switch; the switch itself is one store transaction (all or nothing).
  // The continuation keeps the session's MCP tools (a tool list never changes within a turn).
  const prompt = params.prompts.build({ platform: params.platform, startedAt: params.clock.now(), ...(stored?.extraTools === undefined ? {} : { extraTools: stored.extraTools }) });
  const next = store.continueSession({ fromSessionId: session.id, messages: rows, prompt, ...(params.lastMessageId === undefined ? {} : { ifLastMessageId: params.lastMessageId }) });
  params.logger.info({ from: session.id, to: next.id, outcome: result.outcome, before, after, summarised: result.stats.summarised }, 'compressed the conversation into a new session');
  return { outcome: result.outcome, before, after, session: next, systemPrompt: prompt.text, messages: result.messages, turnStart: firstTurnMessage };
}
