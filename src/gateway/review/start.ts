import type { Logger } from 'pino';
import type { AIAgent } from '../../agent/agent.js';
import type { Store } from '../../store/types.js';
import type { BackgroundWork } from './background-work.js';
import { addReviewTokens, logReview, noticeAllowed, reviewDueAfterTurn, reviewNotice, runReview, type ReviewTokens } from './review.js';
import type { MessageEvent } from '../../core/adapter.js';
import type { GatewayReplies } from '../delivery/replies.js';
import type { GatewayMetrics } from '../ops/metrics.js';
import { modelMeter } from '../ops/model-meter.js';
import type { RunnerOptions } from '../runtime/types.js';
import { sessionContextLength } from '../sessions/context-length.js';

/** Context length assumed for the transcript budget when the model's is not known yet. */
const FALLBACK_CONTEXT_TOKENS = 32_000;

/** Share of the context length the review's transcript may take. */
const TRANSCRIPT_SHARE = 0.25;

/**
 * After a delivered turn: starts the session's background review on `work` when one is due (read from the store, so
 * restarts keep the count). Skipped when the session already has a message waiting (it would interrupt the review at
 * once), a review running, or the global limit is reached. Never reviews a group or channel session: its transcript
 * holds other people's words, and what a review writes (USER.md, skills) goes into every future prompt of the owner.
 * Never throws; a failing review is one warn line.
 */
export function startReviewIfDue(params: {
  work: BackgroundWork;
  store: Store;
  logger: Logger;
  replies: GatewayReplies;
  key: string;
  sessionId: string;
  turnModelCalls: number;
  /** The message the turn answered: the notice replies to it. */
  event: MessageEvent;
  /** Messages waiting in the session's mailbox. */
  queued: number;
  options: RunnerOptions;
  agent: AIAgent;
  /** Counts the review's model calls (gateway.http.metrics). */
  metrics?: GatewayMetrics | undefined;
}): void {
  const { options, store, sessionId, logger } = params;
  const review = options.review;
  if (review === undefined || !review.schedule.enabled || params.queued > 0) return;
  if (params.event.chat.kind !== 'dm') return;
  let due: ReturnType<typeof reviewDueAfterTurn>;
  try {
    due = reviewDueAfterTurn({ store, sessionId, turnModelCalls: params.turnModelCalls, options: review, memoryOn: options.toolContext.memory !== undefined });
  } catch (error) {
    logger.warn({ err: error, sessionId }, 'could not tell whether a background review is due');
    return;
  }
  if (!due.due) return;
  const { kinds, reason } = due;
  // The session's model (its /model choice, else the configured one): what the review talks to on the main route, and
  // whose context the transcript budget is a share of.
  const modelContext = options.modelContext;
  const contextTokens = modelContext === undefined ? FALLBACK_CONTEXT_TOKENS : sessionContextLength({ store, sessionId, modelContext }).tokens;
  const reviewer = review.agentFor({ main: params.agent, sessionModel: store.sessionModel({ sessionId }) ?? undefined });
  const started = params.work.start({
    key: params.key,
    timeoutMs: review.timeoutMs,
    run: async (signal) => {
      const tokens: ReviewTokens = { prompt: 0, completion: 0 };
      const outcome = await runReview({
        store,
        sessionId,
        kinds,
        memoryTargets: review.memoryTargets,
        agent: reviewer.agent,
        model: reviewer.model,
        toolContext: options.toolContext,
        maxTranscriptTokens: Math.floor(contextTokens * TRANSCRIPT_SHARE),
        countTokens: review.countTokens,
        signal,
        onUsage: (report) => addReviewTokens({ tokens, report }),
        onModelCall: modelMeter({ metrics: params.metrics, purpose: 'review' }),
      });
      logReview({ logger, sessionId, reason, sessionModelCalls: due.modelCalls, outcome, signal, tokens });
      // An SMS or an email per notice would cost the owner a message of its own: the log line says it there.
      if (outcome.kind === 'saved' && review.notice && !signal.aborted && noticeAllowed({ platform: params.event.platform })) {
        params.replies.send({ event: params.event, text: reviewNotice({ saved: outcome.saved }), what: 'review notice' });
      }
    },
  });
  if (started !== 'started') logger.info({ sessionId, due: reason, skipped: started }, 'background review not started');
}
