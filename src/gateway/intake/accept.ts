import type { Logger } from 'pino';
import type { Store, InboxRow } from '../../store/types.js';
import { messageEventSchema, type EmitOutcome, type MessageEvent } from '../../core/adapter.js';
import type { AdapterEntry } from '../../core/platform.js';
import type { GatewayCommandName } from '../../core/commands.js';
import { messageCommand, skillCatalogOf, type MessageCommand } from '../commands/skill-command.js';
import { turnModeOf } from '../commands/lanes.js';
import { retryRefusal } from '../commands/retry.js';
import type { OwnerQuestions } from '../owner/questions.js';
import type { BackgroundWork } from '../review/background-work.js';
import type { AdapterSlots } from '../runtime/slots.js';
import type { JournalResult } from './journal.js';
import type { SenderGate } from './sender-gate.js';
import type { SessionMailboxes } from './mailboxes.js';

/** What became of an accepted message; 'deferred' = journaled while draining, answered after the next start; 'answer' = it answered a clarify question. */
export type AcceptResult = EmitOutcome;

/** The runner's phase: messages are taken while running; while draining only messages (not commands) are journaled. */
export type RunnerPhase = 'new' | 'running' | 'draining' | 'stopped';

/** What accepting a message needs of the runner. */
export interface AcceptDeps {
  readonly store: Store;
  readonly logger: Logger;
  readonly slots: AdapterSlots;
  readonly gate: SenderGate;
  readonly mailboxes: SessionMailboxes;
  readonly questions: OwnerQuestions;
  readonly background: BackgroundWork;
  readonly phase: () => RunnerPhase;
  /** The skills folder in force (a reload may change it); absent: no skill commands. */
  readonly skillsDir: () => string | undefined;
  /** Authorizes and journals the event (the sender gate, then the inbox row). */
  readonly journal: (params: { event: MessageEvent; entry: AdapterEntry }) => JournalResult;
  /** Answers a command on the control lane, at once. */
  readonly control: (params: { row: InboxRow; command: MessageCommand }) => Promise<void>;
}

/** Commands that stop the session's background review, as a message does (the others, such as /status, leave it alone). */
const REVIEW_STOPPERS: readonly GatewayCommandName[] = ['new', 'resume', 'stop'];

/** The adapter's event checked against the schema, with any system mark removed: only runner.inject starts system turns. */
function checkedEvent(params: { event: MessageEvent; via: string; logger: Logger }): MessageEvent {
  const parsed = messageEventSchema.safeParse(params.event);
  if (!parsed.success) {
    params.logger.error({ via: params.via, issues: parsed.error.issues.slice(0, 5) }, 'adapter produced an invalid message event');
    throw new Error(`invalid message event from ${params.via}: ${parsed.error.issues[0]?.message ?? 'unknown problem'}`);
  }
  const { system: _spoofed, ...event } = parsed.data;
  return event;
}

/**
 * Takes one inbound message from an adapter. Resolves once it is durably journaled (or deliberately dropped), so the
 * adapter may then acknowledge it to its platform. Rejects with JournalRefusedError when the disk refuses the journal
 * write: the adapter must not acknowledge, so the platform delivers it again.
 */
export async function acceptEvent(params: { deps: AcceptDeps; event: MessageEvent; via: string }): Promise<AcceptResult> {
  const { deps } = params;
  const event = checkedEvent({ event: params.event, via: params.via, logger: deps.logger });
  const slot = deps.slots.get({ name: event.platform });
  if (!slot) throw new Error(`no adapter named ${event.platform} is running`);
  // Skills are read only for senders who may talk (a stranger's `/word` costs no disk reads; it is not answered).
  const skillsDir = deps.gate.mayTalk({ platform: event.platform, sender: event.sender, allow: slot.entry.allow }) ? deps.skillsDir() : undefined;
  const command = messageCommand({ text: event.text, platform: event.platform, catalog: () => skillCatalogOf({ dir: skillsDir }) });
  // A skill's command is a message: journaled, queued and paced like any (its turn loads the skill's body).
  // /queue, /steer (with text) and /retry become turns too; how each enters the mailbox is its mode.
  const mode = turnModeOf({ command });
  // While draining the store is still open: a message is journaled and answered after the restart (platforms
  // such as Discord or Twilio never deliver it again). A command is refused: it means "now" or not at all.
  const draining = deps.phase() === 'draining';
  if (deps.phase() !== 'running' && !(draining && mode !== undefined)) {
    throw new Error('the gateway is shutting down; deliver this message again later');
  }
  const journaled = deps.journal({ event, entry: slot.entry });
  if (journaled === 'unauthorized') return 'unauthorized';
  const { inserted, row, sessionKey } = journaled;
  if (!inserted) {
    deps.logger.info({ platform: event.platform, messageId: event.messageId }, 'redelivered message ignored');
    return 'duplicate';
  }
  // A message that starts a turn (or /new, /resume, /stop) drops the session's background review: the user comes first,
  // and a review of the conversation being left has no place after /new or /resume.
  if (mode !== undefined || command.kind !== 'command' || REVIEW_STOPPERS.includes(command.name)) deps.background.abort({ key: sessionKey, reason: 'new_message' });
  if (draining) {
    deps.logger.info({ platform: event.platform, messageId: event.messageId }, 'message received while draining: journaled, answered after the next start');
    return 'deferred';
  }
  return route({ deps, row, sessionKey, command, mode, entry: slot.entry });
}

/** Where a journaled message goes: the control lane (a command), a waiting clarify question (its answer), or its session's mailbox. */
async function route(params: { deps: AcceptDeps; row: InboxRow; sessionKey: string; command: MessageCommand; mode: ReturnType<typeof turnModeOf>; entry: AdapterEntry }): Promise<AcceptResult> {
  const { deps, row, sessionKey, command, mode } = params;
  // A /retry while the session is busy, or with nothing to retry, is answered at once instead.
  const refusedRetry = command.kind === 'command' && command.name === 'retry' && retryRefusal({ store: deps.store, sessionKey, mailbox: deps.mailboxes.get({ key: sessionKey }) }) !== undefined;
  if (mode === undefined || refusedRetry) {
    await deps.control({ row, command });
    return 'command';
  }
  // The owner's next message while a clarify question waits in the chat is its answer, not a new turn.
  if (deps.questions.answers({ row, command, store: deps.store })) return 'answer';
  if (command.kind === 'skill') deps.logger.info({ skill: command.name, inboxId: row.id }, 'skill command: queued as a turn');
  deps.mailboxes.for({ key: sessionKey, entry: params.entry }).enqueue({ row, ...(mode === 'queue' || mode === 'steer' ? { mode } : {}) });
  return 'queued';
}
