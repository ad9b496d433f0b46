import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { ApprovalStore } from '../../store/approval-store.js';
import type { ApprovalDecision, ApprovalMatch } from '../../tools/capabilities.js';
import type { Clock } from '../../core/clock.js';
import type { ChoiceRouter } from '../owner/choices.js';
import type { ChatRef, ChoiceAnswer, ChoiceEvent, MessageEvent, PlatformAdapter, Sender } from '../../core/adapter.js';
import type { ChatPacer } from '../delivery/pacer.js';
import { cancelWhy, waitForOwner, type WaitEnd } from '../owner/wait.js';
import { ownerName } from './owner.js';
import { isRememberable } from './policy.js';
import { answerLine, deniedReason, durationText, questionChoices, questionHead, questionText, type ApprovalAnswer } from './text.js';

/** Longest a shutdown waits for the denied questions' edits. */
const SHOW_ON_CLOSE_MS = 5_000;

/** How a question ended: the owner answered, nobody did in time, or it was cancelled (/stop, interrupt, shutdown). */
type Outcome =
  | { readonly kind: 'answer'; readonly answer: ApprovalAnswer; readonly by: string }
  | WaitEnd;

/** One question waiting for the owner. */
interface Pending {
  readonly id: string;
  readonly platform: string;
  readonly chat: ChatRef;
  readonly sessionKey: string;
  readonly command: string;
  /** The platform message carrying the question, once sent. */
  messageId: string | undefined;
  readonly resolve: (outcome: Outcome) => void;
}

/** What one question needs: the turn's chat and adapter (with its pacer), and the command with its matches. */
export interface AskParams {
  readonly sessionKey: string;
  readonly platform: string;
  readonly chat: ChatRef;
  readonly adapter: PlatformAdapter;
  readonly pacer: ChatPacer;
  readonly tool: string;
  /** Scrubbed of secrets already. */
  readonly command: string;
  readonly matches: readonly ApprovalMatch[];
  readonly timeoutMs: number;
  /** The turn's signal: aborted (/stop, a new message, shutdown) denies the request. */
  readonly signal: AbortSignal;
}

/**
 * The approval questions waiting for an owner (in memory: a restart forgets them, and their old buttons retire
 * through the choice router), the per-session "allow for this session" sets, and the answers: button presses
 * (`ap:<id>:<answer>`) and `/approve` `/deny`. Only an owner of the platform (see owner.ts) answers.
 */
export class ApprovalDesk {
  private readonly pending = new Map<string, Pending>();
  /** Set by `cancelAll({close: true})` (shutdown): no new question is asked, with this reason. */
  private closedWhy: string | undefined;
  /** The edits showing a decision that are under way. */
  private readonly showing = new Set<Promise<void>>();
  private readonly sessionSets = new Map<string, Set<string>>();
  private readonly store: Pick<ApprovalStore, 'addApprovalRule'>;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly isOwner: (params: { platform: string; sender: Sender }) => boolean;

  /** Registers the `ap` prefix with `choices`; `isOwner` tells who may answer on a platform. */
  constructor(params: {
    store: Pick<ApprovalStore, 'addApprovalRule'>;
    clock: Clock;
    logger: Logger;
    choices: ChoiceRouter;
    isOwner: (params: { platform: string; sender: Sender }) => boolean;
  }) {
    this.store = params.store;
    this.clock = params.clock;
    this.logger = params.logger;
    this.isOwner = params.isOwner;
    params.choices.register({ prefix: 'ap', handle: async (event) => this.choose(event) });
  }

  /** How many questions wait now. */
  get waiting(): number {
    return this.pending.size;
  }

  /** The pattern ids the owner allowed for the rest of this session (forgotten on restart). */
  sessionAllowed(params: { sessionKey: string }): ReadonlySet<string> {
    return this.sessionSets.get(params.sessionKey) ?? new Set<string>();
  }

  /** Forgets what the owner allowed for the session (`/new` starts another: it does not inherit the allowance). */
  forgetSession(params: { sessionKey: string }): void {
    this.sessionSets.delete(params.sessionKey);
  }

  /**
   * Asks the owner in the turn's chat and waits for the answer, the timeout or the turn's end; then edits the
   * question to show the decision (buttons removed) and applies it ("session" and "always" remember the patterns).
   */
  async ask(params: AskParams): Promise<ApprovalDecision> {
    const { adapter, pacer, chat, signal } = params;
    const id = randomBytes(6).toString('hex');
    const head = questionHead(params);
    const buttons = adapter.capabilities.buttons === true;
    let resolve: (outcome: Outcome) => void = () => undefined;
    const settled = new Promise<Outcome>((r) => (resolve = r));
    const entry: Pending = { id, platform: params.platform, chat, sessionKey: params.sessionKey, command: params.command, messageId: undefined, resolve };
    if (signal.aborted) return { approved: false, reason: `not asked: ${cancelWhy({ signal })}` };
    if (this.closedWhy !== undefined) return { approved: false, reason: `not asked: ${this.closedWhy}` };
    this.pending.set(id, entry);
    try {
      const text = questionText({ head, buttons, timeoutMs: params.timeoutMs });
      const sent = await pacer.run({ chatKey: chat.id, op: () => adapter.send({ chat, text, ...(buttons ? { choices: questionChoices({ requestId: id }) } : {}) }) });
      entry.messageId = sent.messageId;
    } catch (error) {
      this.pending.delete(id);
      this.logger.warn({ err: error, platform: params.platform, chatId: chat.id }, 'the approval question could not be sent; the command is denied');
      return { approved: false, reason: 'the approval question could not be sent to the owner' };
    }
    this.logger.info({ requestId: id, platform: params.platform, chatId: chat.id, patterns: params.matches.map((m) => m.patternId) }, 'approval asked');
    const outcome = await waitForOwner({ settled, resolve, signal, timeoutMs: params.timeoutMs, clock: this.clock });
    this.pending.delete(id);
    const line = this.apply({ outcome, params });
    const shown = this.showDecision({ params, messageId: entry.messageId, head, line: line.text, notify: outcome.kind !== 'answer' });
    this.showing.add(shown);
    await shown;
    this.showing.delete(shown);
    return line.decision;
  }

  /**
   * Denies every waiting question; with `close` (shutdown) every later one is denied without asking. Resolves when the
   * questions show their decision (buttons removed): a shutdown waits for it before it stops the adapters, else the
   * buttons of a question stay on the phone (they then only answer "expired").
   */
  async cancelAll(params: { why: string; close?: boolean }): Promise<void> {
    if (params.close === true) this.closedWhy = params.why;
    for (const entry of this.pending.values()) entry.resolve({ kind: 'cancelled', why: params.why });
    // The resolved asks apply the outcome and start their edit on the next microtasks.
    await new Promise<void>((r) => setImmediate(r));
    if (this.showing.size === 0) return;
    const bound = new AbortController();
    await Promise.race([Promise.allSettled([...this.showing]), this.clock.sleep(SHOW_ON_CLOSE_MS, bound.signal).catch(() => undefined)]);
    bound.abort();
  }

  /** The answer to a press of one of the questions' buttons; undefined (expired, buttons retired) when it is not waiting. */
  async choose(event: ChoiceEvent): Promise<ChoiceAnswer | undefined> {
    const [, id = '', answer = ''] = event.choiceId.split(':');
    const entry = this.pending.get(id);
    if (entry === undefined || !isAnswer(answer)) return undefined;
    if (entry.platform !== event.platform || entry.chat.id !== event.chat.id || (entry.messageId !== undefined && entry.messageId !== event.messageId)) return undefined;
    if (!this.isOwner({ platform: event.platform, sender: event.sender })) {
      this.logger.info({ requestId: id, platform: event.platform, senderId: event.sender.id }, 'approval press by someone who is not an owner: ignored');
      return { notice: 'Only the owner can answer this.' };
    }
    entry.resolve({ kind: 'answer', answer, by: ownerName({ sender: event.sender }) });
    return { notice: answerLine({ answer, by: ownerName({ sender: event.sender }) }) };
  }

  /** `/approve [session|always]` and `/deny` in a chat: answers its oldest waiting question; returns the reply. */
  answerCommand(params: { event: MessageEvent; answer: ApprovalAnswer }): string {
    const { event, answer } = params;
    const waiting = [...this.pending.values()].filter((p) => p.platform === event.platform && p.chat.id === event.chat.id && p.messageId !== undefined);
    const first = waiting[0];
    if (first === undefined) return 'Nothing is waiting for approval.';
    if (!this.isOwner({ platform: event.platform, sender: event.sender })) {
      this.logger.info({ requestId: first.id, platform: event.platform, senderId: event.sender.id }, 'approval answer by someone who is not an owner: ignored');
      return "Only the owner (a person in this platform's allowed_users in config) can answer approval requests.";
    }
    const by = ownerName({ sender: event.sender });
    first.resolve({ kind: 'answer', answer, by });
    const more = waiting.length > 1 ? ` ${waiting.length - 1} more waiting: answer again for the next.` : '';
    return `${answerLine({ answer, by })}: \`${first.command.length > 80 ? `${first.command.slice(0, 80)}…` : first.command}\` (the oldest waiting request).${more}`;
  }

  /** Applies an outcome (session set, always rules) and says what the question and the model are told. */
  private apply(params: { outcome: Outcome; params: AskParams }): { text: string; decision: ApprovalDecision } {
    const { outcome } = params;
    const ask = params.params;
    if (outcome.kind === 'timeout') {
      const wait = durationText({ ms: ask.timeoutMs });
      this.logger.info({ platform: ask.platform, chatId: ask.chat.id }, 'approval timed out: denied');
      return { text: `⌛ No answer in ${wait} — denied`, decision: { approved: false, reason: `no answer from the owner within ${wait} (denied)` } };
    }
    if (outcome.kind === 'cancelled') {
      this.logger.info({ platform: ask.platform, chatId: ask.chat.id, why: outcome.why }, 'approval cancelled: denied');
      return { text: `⛔ Denied: ${outcome.why}`, decision: { approved: false, reason: `not approved: ${outcome.why}` } };
    }
    const { answer, by } = outcome;
    this.logger.info({ platform: ask.platform, chatId: ask.chat.id, answer }, 'approval answered');
    if (answer === 'deny') return { text: answerLine({ answer, by }), decision: { approved: false, reason: deniedReason({ by }) } };
    if (answer === 'session') {
      const set = this.sessionSets.get(ask.sessionKey) ?? new Set<string>();
      for (const m of ask.matches) if (isRememberable(m)) set.add(m.patternId);
      this.sessionSets.set(ask.sessionKey, set);
    }
    if (answer === 'always') for (const m of ask.matches.filter((x) => isRememberable(x))) this.store.addApprovalRule({ patternId: m.patternId, description: m.description, example: ask.command });
    return { text: answerLine({ answer, by }), decision: { approved: true, how: answer } };
  }

  /** Edits the question to its decision (no buttons); where messages cannot be edited, a timeout or cancel is sent as a notice. */
  private async showDecision(params: { params: AskParams; messageId: string | undefined; head: string; line: string; notify: boolean }): Promise<void> {
    const { adapter, pacer, chat } = params.params;
    const { messageId } = params;
    try {
      if (adapter.capabilities.edit && messageId !== undefined) {
        await pacer.run({ chatKey: chat.id, op: () => adapter.edit({ chat, messageId, text: `${params.head}\n\n${params.line}` }) });
      } else if (params.notify) {
        await pacer.run({ chatKey: chat.id, op: () => adapter.send({ chat, text: `${params.line}: \`${params.params.command.slice(0, 80)}\`` }) });
      }
    } catch (error) {
      this.logger.warn({ err: error, platform: params.params.platform, chatId: chat.id }, 'could not show the approval decision');
    }
  }
}

function isAnswer(value: string): value is ApprovalAnswer {
  return value === 'once' || value === 'session' || value === 'always' || value === 'deny';
}
