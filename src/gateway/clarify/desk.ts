import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { storeDiskErrorOf } from '../../store/errors.js';
import type { InboxRow, Store } from '../../store/types.js';
import type { ClarifyAnswer } from '../../tools/capabilities.js';
import type { Clock } from '../../core/clock.js';
import type { ChoiceRouter } from '../owner/choices.js';
import type { ChatRef, ChoiceAnswer, ChoiceEvent, MessageEvent, PlatformAdapter, Sender } from '../../core/adapter.js';
import type { ChatPacer } from '../delivery/pacer.js';
import { ownerName } from '../approvals/owner.js';
import { durationText } from '../approvals/text.js';
import { cancelWhy, waitForOwner, type WaitEnd } from '../owner/wait.js';
import { answeredLine, cancelledLine, messageAnswer, questionChoices, questionHead, questionText, timeoutLine } from './text.js';

/** How a question ended: the owner answered (a press or a message), nobody did in time, or the turn ended first. */
type Outcome =
  | { readonly kind: 'answer'; readonly answer: string; readonly via: 'choice' | 'message'; readonly by: string }
  | WaitEnd;

/** One question waiting for the owner. */
interface Pending {
  readonly id: string;
  readonly platform: string;
  readonly chat: ChatRef;
  readonly sessionKey: string;
  readonly choices: readonly string[];
  /** The platform message carrying the question, once sent (a press must be on it). */
  messageId: string | undefined;
  readonly resolve: (outcome: Outcome) => void;
}

/** What one question needs: the turn's session, chat and adapter (with its pacer), the question and how long to wait. */
export interface ClarifyAskParams {
  readonly sessionKey: string;
  readonly platform: string;
  readonly chat: ChatRef;
  readonly adapter: PlatformAdapter;
  readonly pacer: ChatPacer;
  /** Scrubbed of secrets already, as the choices. */
  readonly question: string;
  readonly choices: readonly string[];
  readonly timeoutMs: number;
  /** The turn's signal: aborted (/stop, a new message, /new, shutdown) ends the question unanswered. */
  readonly signal: AbortSignal;
}

/** A message that answers a waiting question: `take` resolves it (call it once the message is marked done in the journal). */
export interface ClaimedAnswer {
  readonly requestId: string;
  take(): void;
}

/**
 * The clarify questions waiting for an owner (in memory: a restart forgets them, and their old buttons retire through
 * the choice router) and their answers: a press of one of the question's buttons (`cl:<id>:<index>`), or the owner's
 * next message in the chat (`claim`). Only an owner of the platform (see approvals/owner.ts) answers.
 */
export class ClarifyDesk {
  private readonly pending = new Map<string, Pending>();
  /** Set by `cancelAll({close: true})` (shutdown): no new question is asked, with this reason. */
  private closedWhy: string | undefined;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly isOwner: (params: { platform: string; sender: Sender }) => boolean;

  /** Registers the `cl` prefix with `choices`; `isOwner` tells who may answer on a platform. */
  constructor(params: { clock: Clock; logger: Logger; choices: ChoiceRouter; isOwner: (params: { platform: string; sender: Sender }) => boolean }) {
    this.clock = params.clock;
    this.logger = params.logger;
    this.isOwner = params.isOwner;
    params.choices.register({ prefix: 'cl', handle: async (event) => this.choose(event) });
  }

  /**
   * Asks in the turn's chat and waits for a press, the owner's next message, the timeout or the turn's end; then edits
   * the question to show how it ended (buttons removed). Never rejects.
   */
  async ask(params: ClarifyAskParams): Promise<ClarifyAnswer> {
    const { adapter, pacer, chat, signal } = params;
    if (signal.aborted) return { answered: false, reason: `not asked: ${cancelWhy({ signal })}` };
    if (this.closedWhy !== undefined) return { answered: false, reason: `not asked: ${this.closedWhy}` };
    const id = randomBytes(6).toString('hex');
    const buttons = adapter.capabilities.buttons === true && params.choices.length > 0;
    const head = questionHead({ question: params.question, choices: params.choices, buttons });
    let resolve: (outcome: Outcome) => void = () => undefined;
    const settled = new Promise<Outcome>((r) => (resolve = r));
    const entry: Pending = { id, platform: params.platform, chat, sessionKey: params.sessionKey, choices: params.choices, messageId: undefined, resolve };
    this.pending.set(id, entry);
    try {
      const text = questionText({ head, choices: params.choices, buttons, timeoutMs: params.timeoutMs, group: chat.kind !== 'dm' });
      const choices = buttons ? { choices: questionChoices({ requestId: id, choices: params.choices }) } : {};
      const sent = await pacer.run({ chatKey: chat.id, op: () => adapter.send({ chat, text, ...choices }) });
      entry.messageId = sent.messageId;
    } catch (error) {
      this.pending.delete(id);
      this.logger.warn({ err: error, platform: params.platform, chatId: chat.id }, 'the clarify question could not be sent');
      return { answered: false, reason: 'the question could not be sent to the owner' };
    }
    this.logger.info({ requestId: id, platform: params.platform, chatId: chat.id, choices: params.choices.length }, 'clarify asked');
    const outcome = await waitForOwner({ settled, resolve, signal, timeoutMs: params.timeoutMs, clock: this.clock });
    this.pending.delete(id);
    const line = outcome.kind === 'answer' ? answeredLine(outcome) : outcome.kind === 'timeout' ? timeoutLine(params) : cancelledLine(outcome);
    this.logger.info({ requestId: id, platform: params.platform, chatId: chat.id, outcome: outcome.kind, ...(outcome.kind === 'answer' ? { via: outcome.via } : {}) }, 'clarify ended');
    await this.showEnd({ params, messageId: entry.messageId, head, line, notify: outcome.kind !== 'answer' });
    if (outcome.kind === 'answer') return { answered: true, answer: outcome.answer, via: outcome.via };
    if (outcome.kind === 'timeout') return { answered: false, reason: `no answer from the owner within ${durationText({ ms: params.timeoutMs })}` };
    return { answered: false, reason: outcome.why };
  }

  /** Ends every waiting question unanswered; with `close` (shutdown) every later one is refused without asking. */
  cancelAll(params: { why: string; close?: boolean }): void {
    if (params.close === true) this.closedWhy = params.why;
    for (const entry of this.pending.values()) entry.resolve({ kind: 'cancelled', why: params.why });
  }

  /** The answer to a press of one of the questions' buttons; undefined (expired, buttons retired) when it is not waiting. */
  async choose(event: ChoiceEvent): Promise<ChoiceAnswer | undefined> {
    const [, id = '', index = ''] = event.choiceId.split(':');
    const entry = this.pending.get(id);
    const choice = /^\d$/.test(index) ? entry?.choices[Number(index)] : undefined;
    if (entry === undefined || choice === undefined) return undefined;
    if (entry.platform !== event.platform || entry.chat.id !== event.chat.id || (entry.messageId !== undefined && entry.messageId !== event.messageId)) return undefined;
    if (!this.isOwner({ platform: event.platform, sender: event.sender })) {
      this.logger.info({ requestId: id, platform: event.platform, senderId: event.sender.id }, 'clarify press by someone who is not an owner: ignored');
      return { notice: 'Only the owner can answer this.' };
    }
    const by = ownerName({ sender: event.sender });
    entry.resolve({ kind: 'answer', answer: choice, via: 'choice', by });
    return { notice: answeredLine({ answer: choice, by }) };
  }

  /**
   * Whether `event` answers a question waiting in its session's chat: a message (not a command, with text) from an owner,
   * from the moment the question is asked (the platform may show it, and deliver a quick reply, before the send returns).
   * The oldest such question is answered when `take` is called; undefined: it answers nothing (it is a message like any
   * other, and the busy policy applies to it).
   */
  claim(params: { event: MessageEvent; sessionKey: string }): ClaimedAnswer | undefined {
    const { event, sessionKey } = params;
    if (event.text.trim() === '') return undefined;
    const entry = [...this.pending.values()].find((p) => p.sessionKey === sessionKey && p.platform === event.platform && p.chat.id === event.chat.id);
    if (entry === undefined) return undefined;
    if (!this.isOwner({ platform: event.platform, sender: event.sender })) {
      this.logger.info({ requestId: entry.id, platform: event.platform, senderId: event.sender.id }, 'a message from someone who is not an owner does not answer the clarify question');
      return undefined;
    }
    const picked = messageAnswer({ text: event.text, choices: entry.choices });
    const by = ownerName({ sender: event.sender });
    return { requestId: entry.id, take: () => entry.resolve({ kind: 'answer', answer: picked.answer, via: 'message', by }) };
  }

  /**
   * Whether a journaled message (not a command) answers a question waiting in its session's chat (see `claim`). When it
   * does, it is marked done in the journal before the question resolves, so it never starts a turn and is never taken up
   * again after a restart; false: it is a message like any other.
   */
  answer(params: { row: InboxRow; store: Pick<Store, 'setInboxState'> }): boolean {
    const { row } = params;
    const claimed = this.claim({ event: row.event, sessionKey: row.sessionKey });
    if (claimed === undefined) return false;
    try {
      params.store.setInboxState({ inboxId: row.id, state: 'done' });
    } catch (error) {
      if (storeDiskErrorOf({ error }) === undefined) throw error;
      // The answer still counts now; only a restart before the disk recovers would take the message up as a turn.
      this.logger.warn({ inboxId: row.id }, 'could not mark the clarify answer done (the disk refuses writes); it answers the question anyway');
    }
    claimed.take();
    this.logger.info({ inboxId: row.id, requestId: claimed.requestId }, 'message answered a clarify question');
    return true;
  }

  /** Edits the question to how it ended (no buttons); where messages cannot be edited, a timeout or cancel is sent as a notice. */
  private async showEnd(params: { params: ClarifyAskParams; messageId: string | undefined; head: string; line: string; notify: boolean }): Promise<void> {
    const { adapter, pacer, chat } = params.params;
    const { messageId } = params;
    try {
      if (adapter.capabilities.edit && messageId !== undefined) {
        await pacer.run({ chatKey: chat.id, op: () => adapter.edit({ chat, messageId, text: `${params.head}\n\n${params.line}` }) });
      } else if (params.notify) {
        await pacer.run({ chatKey: chat.id, op: () => adapter.send({ chat, text: params.line }) });
      }
    } catch (error) {
      this.logger.warn({ err: error, platform: params.params.platform, chatId: chat.id }, 'could not show how the clarify question ended');
    }
  }
}
