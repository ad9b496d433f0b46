import { storeDiskErrorOf } from '../../store/errors.js';
import type { AgentRunParams } from '../../agent/types.js';
import { scrubStoredMessage } from '../../store/scrub-message.js';
import { compressionThresholdTokens } from '../sessions/compress.js';
import { toStoredMessage } from '../sessions/history.js';
import type { TypingHandle } from '../intake/mailbox.js';
import { reactToTurn } from './reactions.js';
import { startTyping } from './typing.js';
import { userTextFor } from './user-text.js';
import { turnDocuments } from './documents.js';
import { turnTranscripts } from './voice.js';
import { turnImages } from './images.js';
import type { OpenTurn } from './open.js';
import type { TurnCompressor, TurnContext } from './context.js';

/** What the agent's run left for delivery. */
export interface AgentEnd {
  /** The answer's text (on a store that refused the history: what was streamed). */
  readonly text: string;
  /** A note added after the answer (the agent's, or what went wrong). */
  readonly note: string | undefined;
  readonly failed: boolean;
  /** Model calls recorded in the store for this turn. */
  readonly storedCalls: number;
}

/** The mailbox's typing (started when the message arrived) is adopted; stopped at once when the turn is aborted. */
function turnTyping(params: { turn: OpenTurn }): TypingHandle {
  const { turn } = params;
  const { deps, event } = turn;
  if (turn.signal.aborted) {
    turn.params.typing?.stop();
    return { stop: () => undefined };
  }
  return (
    turn.params.typing ??
    startTyping({
      adapter: deps.adapter,
      chat: event.chat,
      intervalMs: deps.typingIntervalMs,
      clock: deps.clock,
      logger: turn.logger,
      skip: () => deps.pacer.rateLimited({ chatKey: event.chat.id }),
      onRateLimited: (error) => deps.pacer.hold({ chatKey: event.chat.id, retryAfterMs: error.retryAfterMs }),
    })
  );
}

/** Adds (or with `remove`, takes off) one reaction on the message the turn answers. */
export function reactOnTurn(params: { turn: OpenTurn; emoji: string; remove?: boolean }): Promise<void> {
  const { turn } = params;
  return reactToTurn({ adapter: turn.deps.adapter, chat: turn.event.chat, messageId: turn.event.messageId, emoji: params.emoji, logger: turn.logger, ...(params.remove === undefined ? {} : { remove: params.remove }) });
}

/**
 * Runs the agent on the turn: typing while it works, the start reaction, the answer streamed into the turn's reply,
 * every message and model call stored. A store that refuses the history (disk full) before anything was shown throws,
 * so the runner runs the turn again once it writes; after that, the streamed text is delivered anyway.
 */
export async function runAgent(params: { turn: OpenTurn; context: TurnContext; compress: TurnCompressor; retryText: string | undefined }): Promise<AgentEnd> {
  const { turn } = params;
  const { deps } = turn;
  const typing = turnTyping({ turn });
  const reactions = deps.reactions;
  const started = reactions !== undefined && !turn.signal.aborted && turn.system === undefined;
  if (reactions && started) await reactOnTurn({ turn, emoji: reactions.start });
  const seen = { streamed: '', storedCalls: 0 };
  try {
    // What came with the messages, read before the model sees them: voice notes transcribed, photos sized (or
    // described), documents' text.
    const voice = await turnTranscripts({ turn });
    const sight = await turnImages({ turn });
    const documents = new Map([...(await turnDocuments({ turn })), ...voice.blocks, ...sight.blocks]);
    const result = await deps.agent.run(agentRequest({ ...params, seen, documents, images: sight.images }));
    turn.logger.info({ outcome: result.outcome, modelCalls: result.modelCalls }, 'turn finished');
    const note = [...voice.notes, ...sight.notes, ...(result.note === undefined ? [] : [result.note])].join('\n') || undefined;
    return { text: result.text, note, failed: result.outcome === 'error', storedCalls: seen.storedCalls };
  } catch (error) {
    // Cut short (a /stop, a shutdown) while a voice note or document was being read: the end says so, not "went wrong".
    if (turn.signal.aborted && seen.streamed === '' && seen.storedCalls === 0) return { text: '', note: undefined, failed: false, storedCalls: 0 };
    const refused = storeDiskErrorOf({ error });
    if (refused !== undefined && seen.streamed === '') throw error;
    if (refused !== undefined) {
      turn.logger.warn({ code: refused.code }, 'the history could not record this turn (the disk refuses writes); the reply is delivered anyway');
      return { text: seen.streamed, note: undefined, failed: false, storedCalls: seen.storedCalls };
    }
    turn.logger.error({ err: error }, 'agent failed unexpectedly');
    return { text: '', note: 'Something went wrong while answering; the details are in the gateway log. Please try again.', failed: true, storedCalls: seen.storedCalls };
  } finally {
    typing.stop();
    if (reactions?.clearStart && started) await reactOnTurn({ turn, emoji: reactions.start, remove: true });
  }
}

/** The user text of the turn: its own message (or the /retry's text), then the merged parts, empty ones left out. */
function turnUserText(params: { turn: OpenTurn; retryText: string | undefined; documents: ReadonlyMap<string, string> }): string {
  const { turn, documents } = params;
  const expandSkill = turn.deps.expandSkill;
  const own = params.retryText ?? userTextFor({ event: turn.row.event, expandSkill, documents });
  const parts = (turn.params.merged ?? []).map((part) => userTextFor({ event: part.event, expandSkill, documents }));
  return [own, ...parts].filter((t) => t !== '').join('\n\n');
}

/** Text steered in (/steer, busy policy steer) joins the next model call; its rows are completed with this turn's. */
function steeringFor(params: { turn: OpenTurn }): () => string[] {
  const { turn } = params;
  return () => {
    const rows = turn.params.steering?.take() ?? [];
    turn.mergedIds.push(...rows.map((r) => r.id));
    turn.answered.push(...rows.map((r) => r.event.messageId));
    if (rows.length > 0) turn.logger.info({ steered: rows.map((r) => r.id) }, 'steered messages added to the running turn');
    return rows.map((r) => userTextFor({ event: r.event, expandSkill: turn.deps.expandSkill })).filter((t) => t !== '');
  };
}

/** The agent's mid-turn compression: its threshold and context from the session's model, the turn's messages kept last. */
function compressOption(params: { turn: OpenTurn; context: TurnContext; compress: TurnCompressor }): Pick<AgentRunParams, 'compress'> {
  const { turn, context } = params;
  const { compression, agent } = turn.deps;
  if (compression === undefined) return {};
  const contextTokens = compression.contextLength({ sessionId: turn.session.id });
  // Only a fixed part past the plain share moves the threshold, so far under it the cheap estimate does.
  const fixedTokens = agent.estimatePromptTokens({ systemPrompt: context.systemPrompt, history: [], within: Math.floor(compression.threshold * contextTokens) }) ?? 0;
  return {
    compress: {
      thresholdTokens: compressionThresholdTokens({ share: compression.threshold, contextTokens, fixedTokens }),
      contextTokens,
      // Messages past the stored history are this turn's (the tail of a compression keeps them last).
      run: (p) => params.compress({ ...p, turnMessages: Math.max(0, p.messages.length - context.historyLength) }),
    },
  };
}

/** The agent's request for this turn, with the callbacks that stream, store and count what it does. */
function agentRequest(params: {
  turn: OpenTurn;
  context: TurnContext;
  compress: TurnCompressor;
  retryText: string | undefined;
  seen: { streamed: string; storedCalls: number };
  documents: ReadonlyMap<string, string>;
  images: readonly string[];
}): AgentRunParams {
  const { turn, context, seen } = params;
  const { deps, signal } = turn;
  const { store } = deps;
  return {
    systemPrompt: context.systemPrompt,
    ...(deps.prompts.perCall ? { ephemeral: deps.prompts.perCall } : {}),
    history: context.history,
    registry: context.registry,
    // The session's /model choice (null: the route's primary).
    model: store.sessionModel({ sessionId: turn.session.id }) ?? undefined,
    userText: turnUserText(params),
    ...(params.images.length > 0 ? { userImages: params.images } : {}),
    signal,
    steering: steeringFor({ turn }),
    onTextDelta: (delta) => {
      seen.streamed += delta;
      if (turn.system === undefined) turn.delivery.push(delta);
    },
    onMessage: (message) => {
      store.appendMessage(scrubStoredMessage({ message: toStoredMessage({ message, sessionId: turn.session.id, inboxId: turn.row.id }), scrub: deps.scrub }));
      turn.progress.observe({ message });
    },
    ...compressOption(params),
    toolContext: { ...deps.toolContext, ...turn.tools, signal, sessionId: turn.session.id },
    onUsage: (report) => {
      // Usage is bookkeeping: a store that refuses it (disk full) must not cost the user the reply.
      try {
        store.recordModelCall({ sessionId: turn.session.id, inboxId: turn.row.id, ...report });
        seen.storedCalls += 1;
      } catch (error) {
        turn.logger.warn({ err: error }, 'could not record the model call usage');
      }
    },
  };
}
