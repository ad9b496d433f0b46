import type { Logger } from 'pino';
import type { InboxRow, Store } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import { ApprovalDesk } from '../approvals/desk.js';
import { isApprovalOwner } from '../approvals/owner.js';
import type { ChoiceRouter } from './choices.js';
import { ClarifyDesk } from '../clarify/desk.js';
import type { AdapterEntry } from '../../core/platform.js';
import type { MessageCommand } from '../commands/skill-command.js';

/**
 * The questions turns ask the owner and wait on: dangerous-command approvals (answered by their buttons or /approve,
 * /deny, which are commands) and clarify questions (answered by their buttons or the owner's next plain message).
 * Both register their button prefixes with the runner's ChoiceRouter; only an owner of the platform answers.
 */
export class OwnerQuestions {
  /** Dangerous-command approval questions waiting for an owner (in memory). */
  readonly approvals: ApprovalDesk;
  /** Clarify questions waiting for the owner's answer (in memory). */
  readonly clarifications: ClarifyDesk;

  /** `entryOf` finds a platform's adapter entry (its allowed_users are the owners). */
  constructor(params: { store: Store; clock: Clock; logger: Logger; choices: ChoiceRouter; entryOf: (platform: string) => AdapterEntry | undefined }) {
    const isOwner = ({ platform, sender }: { platform: string; sender: Parameters<typeof isApprovalOwner>[0]['sender'] }): boolean => isApprovalOwner({ entry: params.entryOf(platform), sender });
    this.approvals = new ApprovalDesk({ store: params.store, clock: params.clock, logger: params.logger.child({ component: 'approval' }), choices: params.choices, isOwner });
    this.clarifications = new ClarifyDesk({ clock: params.clock, logger: params.logger.child({ component: 'clarify' }), choices: params.choices, isOwner });
  }

  /**
   * Whether an accepted message answered a waiting question (and so starts no turn): only a plain message (not a
   * command, not a skill) can, and only the clarify question waiting in its session's chat (approvals take commands).
   */
  answers(params: { row: InboxRow; command: MessageCommand; store: Pick<Store, 'setInboxState'> }): boolean {
    return params.command.kind === 'none' && this.clarifications.answer({ row: params.row, store: params.store });
  }

  /**
   * Ends every waiting question unanswered; with `close` (shutdown) later ones are refused without asking. Resolves once
   * the denied approvals' questions were edited (buttons removed), so a shutdown awaits it before stopping the adapters.
   */
  async cancelAll(params: { why: string; close?: boolean }): Promise<void> {
    this.clarifications.cancelAll(params);
    await this.approvals.cancelAll(params);
  }
}
