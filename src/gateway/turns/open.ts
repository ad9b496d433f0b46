import type { Logger } from 'pino';
import type { InboxRow, SessionRow } from '../../store/types.js';
import type { MediaItem, MessageEvent, SystemOrigin } from '../../core/adapter.js';
import { StreamDelivery } from '../delivery/stream.js';
import { turnJournal, turnLeftovers } from './journal.js';
import { titleFor } from './user-text.js';
import { ToolProgress } from './tool-progress.js';
import { turnToolsFor, type TurnTools } from './tools.js';
import type { RunTurnParams, TurnDeps, TurnFinish } from './deps.js';
import { lazyChild } from '../../log/component.js';
import type { ToolRegistry } from '../../tools/registry.js';

/** What was journaled of a turn a restart cut short: messages already on the platform, sends never confirmed. */
export type TurnLeftovers = ReturnType<typeof turnLeftovers>;

/** One turn once opened: its message, session, reply stream and tools; what every later phase works on. */
export interface OpenTurn {
  readonly params: RunTurnParams;
  readonly row: InboxRow;
  readonly event: MessageEvent;
  readonly deps: TurnDeps;
  readonly signal: AbortSignal;
  /** Set on a turn the system started (runner.inject): no reply-to, no reactions, sent only once complete. */
  readonly system: SystemOrigin | undefined;
  readonly logger: Logger;
  /** Inbox rows completed with this turn besides its own (merged parts, then steered-in messages). */
  readonly mergedIds: number[];
  /** The inbound platform messages this turn answers: told to the adapter when it ends. */
  readonly answered: string[];
  /** The message was cut short too many times: the turn only says so. */
  readonly giveUp: boolean;
  /** The session the turn writes to; a compression mid-turn switches it to the continuation. */
  session: SessionRow;
  /** The reply being streamed. */
  readonly delivery: StreamDelivery;
  /** A fresh reply stream adopting what the journal holds (a retry of the final delivery). */
  readonly newDelivery: (leftovers: TurnLeftovers) => StreamDelivery;
  readonly progress: ToolProgress;
  /** What the turn's tools know of it (chat, who started it, capabilities). */
  readonly tools: TurnTools;
  /** The turn's tools: the agent's until the context is loaded, then with the session's MCP tools (loadContext). */
  registry: ToolRegistry;
}

/**
 * Opens a turn: marks the row processing, finds or starts the session (titled from the first message), adopts what a
 * cut-short earlier attempt journaled, and builds the reply stream, the tool-progress lines and the turn's tools.
 */
export function openTurn(params: RunTurnParams): OpenTurn {
  const { row, deps } = params;
  const { store } = deps;
  const event = row.event;
  const logger = lazyChild({ logger: deps.logger, bindings: { inboxId: row.id, platform: event.platform, chatId: event.chat.id } });
  const giveUp = row.attempts >= deps.maxAttempts;
  if (!giveUp) store.setInboxState({ inboxId: row.id, state: 'processing' });
  const untitled = titleFor({ text: event.text });
  const title = untitled === null ? null : deps.scrub(untitled);
  const session = store.activeSession({ key: row.sessionKey }) ?? store.createSession({ key: row.sessionKey, title });
  if (session.title === null && title !== null) store.setSessionTitle({ sessionId: session.id, title });
  const removed = store.deleteTurnMessages({ inboxId: row.id });
  const leftovers = turnLeftovers({ store, inboxId: row.id });
  if (removed > 0 || leftovers.existing.length > 0) {
    logger.info({ removedMessages: removed, adoptedMessages: leftovers.existing.length }, 'resuming a turn a restart cut short');
  }
  if (leftovers.pending.length > 0) logger.info({ sends: leftovers.pending.length }, 'a send of the cut-short turn never got its answer; looking for its message before sending again');
  const newDelivery = deliveryFactory({ params, logger });
  const delivery = newDelivery(leftovers);
  // A system-started turn streams nothing (its answer is sent once complete), so it shows no tool activity either.
  // The chat's own /verbose choice wins over the configured default.
  const progressMode = store.chatToolProgress({ key: row.sessionKey }) ?? deps.toolProgress ?? 'new';
  const progress = new ToolProgress({ mode: event.system === undefined ? progressMode : 'off', scrub: deps.scrub, sink: delivery, looks: (name) => turn.registry.get(name)?.progress });
  const merged = params.merged ?? [];
  const turn: Omit<OpenTurn, 'tools'> & { tools?: TurnTools } = {
    registry: deps.agent.registry,
    params,
    row,
    event,
    deps,
    signal: params.signal,
    system: event.system,
    logger,
    mergedIds: merged.map((m) => m.id),
    answered: [event.messageId, ...merged.map((m) => m.event.messageId)],
    giveUp,
    session,
    delivery,
    newDelivery,
    progress,
  };
  // The tools read the turn's current session, which a compression may switch.
  const tools = turnToolsFor({ deps, row, progress, sessionId: () => turn.session.id, registry: () => turn.registry });
  return Object.assign(turn, { tools });
}

/** Builds the turn's reply streams: each adopts the journaled leftovers it is given. */
function deliveryFactory(params: { params: RunTurnParams; logger: Logger }): (leftovers: TurnLeftovers) => StreamDelivery {
  const { row, deps } = params.params;
  const event = row.event;
  const journal = turnJournal({ store: deps.store, inboxId: row.id, event });
  return (leftovers) =>
    new StreamDelivery({
      adapter: deps.adapter,
      chat: event.chat,
      ...(event.system === undefined ? { replyToId: event.messageId } : {}),
      pacer: deps.pacer,
      // Each adapter (bot token) has its own pacer, so the chat id is the key.
      chatKey: event.chat.id,
      clock: deps.clock,
      cursor: deps.cursor,
      logger: params.logger,
      existing: leftovers.existing,
      pending: leftovers.pending,
      mediaPolicy: deps.mediaPolicy,
      ...(deps.stageMedia === undefined ? {} : { stageMedia: deps.stageMedia }),
      scrub: deps.scrub,
      safeLength: deps.safeLength,
      journal,
    });
}

/** Reports the end of a turn: to the runner (runs of system turns, metrics) and to the adapter (turnEnded). */
export function turnFinished(params: { turn: OpenTurn; end: TurnFinish }): void {
  const { turn, end } = params;
  turn.deps.onFinished?.(end);
  try {
    turn.deps.adapter.turnEnded?.({ chat: turn.event.chat, messageIds: turn.answered, outcome: end.outcome });
  } catch (error) {
    turn.logger.warn({ err: error }, 'the adapter failed on the end of a turn');
  }
}

/** The files that came with the turn's messages (its own, then the merged parts'), each path once. */
export function turnFiles(params: { turn: OpenTurn }): MediaItem[] {
  const { turn } = params;
  const all = [turn.row.event, ...(turn.params.merged ?? []).map((part) => part.event)].flatMap((event) => event.media);
  return all.filter((item, i) => all.findIndex((other) => other.path === item.path) === i);
}

/** Marks the turn's row and every row merged or steered into it done. */
export function completeTurn(params: { turn: OpenTurn }): void {
  const { turn } = params;
  turn.deps.store.completeTurn({ inboxId: turn.row.id, merged: turn.mergedIds });
}

/** Ends a turn that runs no agent (given up, nothing to retry) with one note to the user; it counts as an error. */
export async function endWithNote(params: { turn: OpenTurn; note: string; error: string }): Promise<void> {
  const { turn } = params;
  await turn.delivery.finish({ note: params.note });
  completeTurn({ turn });
  turnFinished({ turn, end: { outcome: 'error', sessionId: turn.session.id, text: '', error: params.error } });
}
