import type { Logger } from 'pino';
import type { TurnOutcome } from '../../jobs/ports.js';
import { storeDiskErrorOf } from '../../store/errors.js';
import type { Store, InboxRow, SessionPrompt, SessionRow } from '../../store/types.js';
import { backoffDelay } from '../../util/backoff.js';
import type { Clock } from '../../core/clock.js';
import type { AIAgent } from '../../agent/agent.js';
import type { ChatMessage } from '../../agent/messages.js';
import type { CompressedContext } from '../../agent/types.js';
import { windowHistory } from '../../agent/history-window.js';
import type { PromptSource } from '../../agent/prompt/source.js';
import type { ToolContext } from '../../tools/tool.js';
import type { MessageEvent, PlatformAdapter } from '../../core/adapter.js';
import type { ChatPacer } from '../delivery/pacer.js';
import { StreamDelivery } from '../delivery/stream.js';
import { compressionThresholdTokens, compressSession, type CompressionDeps } from '../sessions/compress.js';
import { sessionHistory, toChatHistory, toStoredMessage } from '../sessions/history.js';
import type { MediaPolicy } from '../delivery/media-policy.js';
import type { MediaStager } from '../delivery/media-stage.js';
import { scrubStoredMessage } from '../../store/scrub-message.js';
import { abortKindOf } from './abort.js';
import { turnJournal, turnLeftovers } from './journal.js';
import { reactToTurn } from './reactions.js';
import { type TurnReactions } from '../../core/platform.js';
import { startTyping } from './typing.js';
import type { SteeringSource, TypingHandle } from '../intake/mailbox.js';
import { isRetryRow, takeRetryText } from '../commands/retry.js';
import { titleFor, userTextFor, type SkillExpander } from './user-text.js';
import { isSilentAnswer } from '../../jobs/system-turn.js';
import { ToolProgress, type ToolProgressMode } from './tool-progress.js';
import { turnToolsFor, type TurnToolFactories } from './tools.js';

/** Everything a turn needs besides its message. */
export interface TurnDeps extends TurnToolFactories {
  readonly store: Store;
  readonly agent: AIAgent;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly adapter: PlatformAdapter;
  readonly pacer: ChatPacer;
  readonly cursor: string;
  readonly typingIntervalMs: number;
  /** Tool activity lines in the streamed reply (display.tool_progress); `new` when absent. */
  readonly toolProgress?: ToolProgressMode;
  /** Builds the system prompt of a session that has none yet (then stored with it), and the per-call block. */
  readonly prompts: PromptSource;
  /** Turns started on one message before it is given up (a message that keeps crashing the gateway). */
  readonly maxAttempts: number;
  /** Most characters of earlier conversation sent to the model when `compression` is not given (tests). */
  readonly historyMaxChars: number;
  /** Compression of long conversations (threshold, tail, summariser, context length); replaces the character cut. */
  readonly compression?: CompressionDeps;
  /** Which MEDIA files a reply may attach. */
  readonly mediaPolicy: MediaPolicy;
  /** Copies each file that passed the policy aside and checks the copy; the platform uploads only the copy. */
  readonly stageMedia?: MediaStager;
  /** Redacts secrets from everything sent to the platform and everything stored. */
  readonly scrub: (text: string) => string;
  /** How much of a streaming reply may be shown yet (the rest could be the start of a secret). */
  readonly safeLength: (params: { text: string }) => number;
  /** Reactions on the message being answered, when enabled for the adapter. */
  readonly reactions?: TurnReactions;
  /** Turns `/<skill-name> [text]` into the skill's body plus the text (absent: messages are sent as written). */
  readonly expandSkill?: SkillExpander;
  /** Called after the reply was delivered and the turn completed (never after an error turn, /stop or shutdown), with the model calls it stored. */
  readonly onDelivered?: (params: { sessionId: string; modelCalls: number }) => void;
  /** Called when the turn ended (not when a shutdown left it open for replay): how it ended, for system-started turns' runs. */
  readonly onFinished?: (end: TurnFinish) => void;
}


/** How a turn ended: `silent` (a system turn whose answer was empty or a silence token: nothing sent), `undelivered` (the platform refused it). */
export interface TurnFinish {
  readonly outcome: TurnOutcome;
  readonly sessionId: string;
  /** The answer's final text (before any note). */
  readonly text: string;
  /** Why it failed: the agent's note, or the delivery errors. */
  readonly error?: string;
  /** A delivered reply's parts that did not reach the platform (a file it refused): the text arrived, these did not. */
  readonly deliveryErrors?: readonly string[];
}

/** The session's stored system prompt; built (from the session's start and platform) and stored when it has none. */
function sessionPromptFor(params: { store: Store; session: SessionRow; platform: string; prompts: PromptSource; logger: Logger }): SessionPrompt {
  const { store, session } = params;
  const stored = store.sessionPrompt({ sessionId: session.id });
  if (stored !== undefined) return stored;
  const prompt = params.prompts.build({ platform: params.platform, startedAt: session.startedAt });
  store.setSessionPrompt({ sessionId: session.id, prompt });
  params.logger.info({ sessionId: session.id, chars: prompt.text.length, layers: prompt.layers }, 'built the system prompt of a new session');
  return prompt;
}

/** Share of the context length past which the gateway compresses before a turn, whatever the agent's own check does. */
export const SAFETY_SHARE = 0.85;

/** Further tries to deliver a finished reply the platform refused (not counting the delivery's own retries). */
const deliveryRetries = 4;

/** Most stored messages read per turn without compression; the character window then trims further. */
const historyReadLimit = 400;

/** What the user is told about a message that kept crashing the gateway. */
function giveUpNote(params: { attempts: number }): string {
  return (
    `Sorry, I could not answer this message: the gateway stopped ${params.attempts} times while working on it. ` +
    'Send it again (perhaps shorter) if it still matters; the gateway log has the details.'
  );
}

/**
 * Runs one turn: the agent answers one inbound message, the reply streams to the platform, and the
 * journal records every sent message so a crash mid-stream is finished in place on replay.
 */
export async function runTurn(params: { row: InboxRow; merged?: readonly InboxRow[]; signal: AbortSignal; typing?: TypingHandle; steering?: SteeringSource; deps: TurnDeps }): Promise<void> {
  const { row, signal, deps } = params;
  const merged = params.merged ?? [];
  const mergedIds = merged.map((m) => m.id);
  const { store, adapter } = deps;
  const event = row.event;
  // A system-started turn (runner.inject) answers no platform message: no reply-to, no reactions, sent only once complete.
  const system = event.system;
  const logger = deps.logger.child({ inboxId: row.id, platform: event.platform, chatId: event.chat.id });
  // The inbound messages this turn answers (its own, merged parts, steered-in messages): told to the adapter when it ends.
  const answered = [event.messageId, ...merged.map((m) => m.event.messageId)];
  const finished = (end: TurnFinish): void => {
    deps.onFinished?.(end);
    try {
      adapter.turnEnded?.({ chat: event.chat, messageIds: answered, outcome: end.outcome });
    } catch (error) {
      logger.warn({ err: error }, 'the adapter failed on the end of a turn');
    }
  };
  const giveUp = row.attempts >= deps.maxAttempts;
  if (!giveUp) store.setInboxState({ inboxId: row.id, state: 'processing' });

  const untitled = titleFor({ text: event.text });
  const title = untitled === null ? null : deps.scrub(untitled);
  let session = store.activeSession({ key: row.sessionKey }) ?? store.createSession({ key: row.sessionKey, title });
  if (session.title === null && title !== null) store.setSessionTitle({ sessionId: session.id, title });
  const removed = store.deleteTurnMessages({ inboxId: row.id });
  const leftovers = turnLeftovers({ store, inboxId: row.id });
  if (removed > 0 || leftovers.existing.length > 0) {
    logger.info({ removedMessages: removed, adoptedMessages: leftovers.existing.length }, 'resuming a turn a restart cut short');
  }
  if (leftovers.pending.length > 0) logger.info({ sends: leftovers.pending.length }, 'a send of the cut-short turn never got its answer; looking for its message before sending again');
  const journal = turnJournal({ store, inboxId: row.id, event });
  const newDelivery = (params: ReturnType<typeof turnLeftovers>): StreamDelivery =>
    new StreamDelivery({
      adapter,
      chat: event.chat,
      ...(system === undefined ? { replyToId: event.messageId } : {}),
      pacer: deps.pacer,
      // Each adapter (bot token) has its own pacer, so the chat id is the key.
      chatKey: event.chat.id,
      clock: deps.clock,
      cursor: deps.cursor,
      logger,
      existing: params.existing,
      pending: params.pending,
      mediaPolicy: deps.mediaPolicy,
      ...(deps.stageMedia === undefined ? {} : { stageMedia: deps.stageMedia }),
      scrub: deps.scrub,
      safeLength: deps.safeLength,
      journal,
    });
  const delivery = newDelivery(leftovers);
  // A system-started turn streams nothing (its answer is sent once complete), so it shows no tool activity either.
  // The chat's own /verbose choice wins over the configured default.
  const progressMode = store.chatToolProgress({ key: row.sessionKey }) ?? deps.toolProgress ?? 'new';
  const progress = new ToolProgress({ mode: system === undefined ? progressMode : 'off', scrub: deps.scrub, sink: delivery, looks: (name) => deps.agent.registry.get(name)?.progress });
  // What tools know of the turn: the chat it answers, who started it, the capabilities built for it.
  const turnTools = turnToolsFor({ deps, row, progress, sessionId: () => session.id });
  if (giveUp) {
    logger.error({ attempts: row.attempts }, 'giving up on a message that was cut short too many times');
    await delivery.finish({ note: giveUpNote({ attempts: row.attempts }) });
    store.completeTurn({ inboxId: row.id, merged: mergedIds });
    finished({ outcome: 'error', sessionId: session.id, text: '', error: `cut short ${row.attempts} times` });
    return;
  }
  // A /retry answers the last user message again: its exchange is set aside (hidden) before the history is read.
  const retry = isRetryRow({ row }) ? takeRetryText({ store, session, row }) : undefined;
  if (retry?.kind === 'nothing') {
    await delivery.finish({ note: 'Nothing to retry: this conversation has no message of yours to answer again.' });
    store.completeTurn({ inboxId: row.id, merged: mergedIds });
    finished({ outcome: 'error', sessionId: session.id, text: '', error: 'nothing to retry' });
    return;
  }
  // Built once per session and stored with it, so every model call of the session sends the same system prompt.
  let systemPrompt = sessionPromptFor({ store, session, platform: event.platform, prompts: deps.prompts, logger }).text;
  // With compression the whole session (it starts at its compression head and stays under the threshold); without it
  // (runners built without a context length), a bounded read and the character window.
  let history =
    deps.compression === undefined
      ? windowHistory({ messages: toChatHistory({ messages: store.history({ sessionId: session.id, limit: historyReadLimit }) }), maxChars: deps.historyMaxChars })
      : sessionHistory({ store, sessionId: session.id });
  const compression = deps.compression;
  // How many of the agent's messages came before this turn (this turn's are written with its inbox id).
  let historyLength = history.length;
  const compress = async (p: { messages: readonly ChatMessage[]; systemPrompt: string; force: boolean; signal: AbortSignal; turnMessages: number }): Promise<CompressedContext | undefined> => {
    if (compression === undefined) return undefined;
    const done = await compressSession({
      store,
      session,
      platform: event.platform,
      prompts: deps.prompts,
      deps: compression,
      messages: p.messages,
      overheadTokens: deps.agent.estimatePromptTokens({ systemPrompt: p.systemPrompt, history: [] }) ?? 0,
      countTokens: (message) => deps.agent.messageTokens({ message }),
      force: p.force,
      inboxId: row.id,
      turnMessages: p.turnMessages,
      signal: p.signal,
      scrub: deps.scrub,
      clock: deps.clock,
      logger,
    });
    if (done.outcome === 'under_threshold') return undefined;
    const switched = done.session.id !== session.id;
    session = done.session;
    systemPrompt = done.systemPrompt;
    historyLength = done.turnStart;
    // Tools key on the current session (session_search leaves it out): they follow the switch for the rest of the turn.
    return { messages: done.messages, systemPrompt: done.systemPrompt, ...(switched ? { toolContext: { ...deps.toolContext, ...turnTools, sessionId: session.id } } : {}) };
  };
  if (compression !== undefined && !signal.aborted) {
    // The gateway's safety check: a request past 0.85 of the context is compressed before the agent runs.
    const estimate = deps.agent.estimatePromptTokens({ systemPrompt, history }) ?? 0;
    const fixed = deps.agent.estimatePromptTokens({ systemPrompt, history: [] }) ?? 0;
    // When the fixed part alone does not fit, no compression helps: the agent ends the turn with a clear note.
    // The context of the model the session talks to (its /model choice, else the configured one).
    const contextTokens = compression.contextLength({ sessionId: session.id });
    if (estimate > SAFETY_SHARE * contextTokens && fixed < contextTokens) {
      const done = await compress({ messages: history, systemPrompt, force: false, signal, turnMessages: 0 });
      if (done !== undefined) history = done.messages;
    }
    historyLength = history.length;
  }
  // The mailbox's typing (started when the message arrived) is adopted; stopped at once when the turn is aborted.
  if (signal.aborted) params.typing?.stop();
  const typing = signal.aborted
    ? { stop: () => undefined }
    : params.typing ?? startTyping({
        adapter,
        chat: event.chat,
        intervalMs: deps.typingIntervalMs,
        clock: deps.clock,
        logger,
        skip: () => deps.pacer.rateLimited({ chatKey: event.chat.id }),
        onRateLimited: (error) => deps.pacer.hold({ chatKey: event.chat.id, retryAfterMs: error.retryAfterMs }),
      });
  const react = (emoji: string, remove = false): Promise<void> => reactToTurn({ adapter, chat: event.chat, messageId: event.messageId, emoji, logger, remove });
  const started = deps.reactions !== undefined && !signal.aborted && system === undefined;
  if (deps.reactions && started) await react(deps.reactions.start);
  let failed = false;
  let note: string | undefined;
  let text = '';
  let streamed = '';
  let storedCalls = 0;
  try {
    const result = await deps.agent.run({
      systemPrompt,
      ...(deps.prompts.perCall ? { ephemeral: deps.prompts.perCall } : {}),
      history,
      // The session's /model choice (null: the route's primary).
      model: store.sessionModel({ sessionId: session.id }) ?? undefined,
      userText: [...(retry === undefined ? [userTextFor({ event: row.event, expandSkill: deps.expandSkill })] : [retry.text]), ...merged.map((part) => userTextFor({ event: part.event, expandSkill: deps.expandSkill }))]
        .filter((t) => t !== '')
        .join('\n\n'),
      signal,
      // Text steered in (/steer, busy policy steer) joins the next model call; its rows are completed with this turn's.
      steering: () => {
        const rows = params.steering?.take() ?? [];
        mergedIds.push(...rows.map((r) => r.id));
        answered.push(...rows.map((r) => r.event.messageId));
        if (rows.length > 0) logger.info({ steered: rows.map((r) => r.id) }, 'steered messages added to the running turn');
        return rows.map((r) => userTextFor({ event: r.event, expandSkill: deps.expandSkill })).filter((t) => t !== '');
      },
      onTextDelta: (delta) => {
        streamed += delta;
        if (system === undefined) delivery.push(delta);
      },
      onMessage: (message) => {
        store.appendMessage(scrubStoredMessage({ message: toStoredMessage({ message, sessionId: session.id, inboxId: row.id }), scrub: deps.scrub }));
        progress.observe({ message });
      },
      ...(compression === undefined
        ? {}
        : {
            compress: {
              thresholdTokens: compressionThresholdTokens({
                share: compression.threshold,
                contextTokens: compression.contextLength({ sessionId: session.id }),
                fixedTokens: deps.agent.estimatePromptTokens({ systemPrompt, history: [] }) ?? 0,
              }),
              contextTokens: compression.contextLength({ sessionId: session.id }),
              // Messages past the stored history are this turn's (the tail of a compression keeps them last).
              run: (p) => compress({ ...p, turnMessages: Math.max(0, p.messages.length - historyLength) }),
            },
          }),
      toolContext: { ...deps.toolContext, ...turnTools, signal, sessionId: session.id },
      onUsage: (report) => {
        // Usage is bookkeeping: a store that refuses it (disk full) must not cost the user the reply.
        try {
          store.recordModelCall({ sessionId: session.id, inboxId: row.id, ...report });
          storedCalls += 1;
        } catch (error) {
          logger.warn({ err: error }, 'could not record the model call usage');
        }
      },
    });
    text = result.text;
    note = result.note;
    failed = result.outcome === 'error';
    logger.info({ outcome: result.outcome, modelCalls: result.modelCalls }, 'turn finished');
  } catch (error) {
    const refused = storeDiskErrorOf({ error });
    // The store refused the history (disk full). Nothing shown yet: the runner runs the turn again once it writes.
    if (refused !== undefined && streamed === '') throw error;
    if (refused !== undefined) {
      text = streamed;
      logger.warn({ code: refused.code }, 'the history could not record this turn (the disk refuses writes); the reply is delivered anyway');
    } else {
      failed = true;
      logger.error({ err: error }, 'agent failed unexpectedly');
      note = 'Something went wrong while answering; the details are in the gateway log. Please try again.';
    }
  } finally {
    typing.stop();
    if (deps.reactions?.clearStart && started) await react(deps.reactions.start, true);
  }

  const abortKind = abortKindOf({ signal });
  if (abortKind === 'shutdown') {
    // Leave the turn open: the next start replays it and finishes the shown message in place.
    await delivery.halt();
    logger.info('turn left open for replay after shutdown');
    return;
  }
  // A reply that showed only tool activity says so too, rather than being left as a bare "…".
  if (abortKind !== undefined && (text.trim() !== '' || delivery.started)) note = '(stopped)';
  if (system !== undefined) {
    // Nothing to say (or nothing reached the model): nothing is sent; the scheduler decides about retries.
    const quiet = failed || abortKind !== undefined || isSilentAnswer({ origin: system, text });
    if (quiet) {
      await delivery.halt();
      store.completeTurn({ inboxId: row.id, merged: mergedIds });
      const outcome = failed ? 'error' : abortKind !== undefined ? 'stopped' : 'silent';
      finished({ outcome, sessionId: session.id, text, ...(note === undefined ? {} : { error: note }) });
      return;
    }
    delivery.push(text);
  }
  const finalParams = note !== undefined ? { note } : {};
  let delivered = await delivery.finish(finalParams);
  // The platform may be briefly unreachable: try again in place (adopting what was sent) before giving up.
  for (let attempt = 0; !delivered.textComplete && attempt < deliveryRetries && !signal.aborted; attempt++) {
    const retryInMs = backoffDelay({ attempt, baseMs: 2000, maxMs: 60_000 });
    logger.warn({ errors: delivered.errors, retryInMs }, 'the reply did not fully reach the platform; trying again');
    try {
      await deps.clock.sleep(retryInMs, signal);
    } catch {
      break;
    }
    const retry = newDelivery(turnLeftovers({ store, inboxId: row.id }));
    retry.push(text);
    delivered = await retry.finish(finalParams);
  }
  if (!delivered.textComplete) {
    logger.error({ errors: delivered.errors }, 'the reply could not be delivered; the message stays journaled and is answered on the next start');
    finished({ outcome: 'undelivered', sessionId: session.id, text, error: delivered.errors.join('; ') || 'not delivered' });
    return;
  }
  if (delivered.errors.length > 0) logger.warn({ errors: delivered.errors }, 'reply delivered with errors');
  if (deps.reactions && abortKind === undefined) await react(failed ? deps.reactions.error : deps.reactions.done);
  store.completeTurn({ inboxId: row.id, merged: mergedIds });
  if (abortKind === undefined && !failed) deps.onDelivered?.({ sessionId: session.id, modelCalls: storedCalls });
  const partly = delivered.errors.length > 0 ? { deliveryErrors: delivered.errors } : {};
  finished({ outcome: failed ? 'error' : abortKind !== undefined ? 'stopped' : 'delivered', sessionId: session.id, text, ...(note === undefined ? {} : { error: note }), ...partly });
}
