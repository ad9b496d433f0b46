import { UNCHECKED_COMMAND } from '../../tools/approval/classify-command.js';
import type { ApprovalMatch } from '../../tools/capabilities.js';

/**
 * Whether an "always" rule or a session allowance may cover a match: not a command too long or too deeply nested to
 * check, whose unexamined part could hold anything (such a command is asked about every time).
 */
export function isRememberable(params: { patternId: string }): boolean {
  return params.patternId !== UNCHECKED_COMMAND.patternId;
}

/** How `tools.approval` treats dangerous commands: ask the owner, let the auxiliary model judge first, or never ask. */
export type ApprovalMode = 'manual' | 'smart' | 'off';

/** What the policy decided before anyone is asked: allowed, denied, the auxiliary model judges, or the owner is asked. */
export type PolicyVerdict =
  | { readonly kind: 'allow'; readonly how: 'off' | 'rule' | 'session' }
  | { readonly kind: 'deny'; readonly reason: string }
  | { readonly kind: 'judge' }
  | { readonly kind: 'ask' };

/** Why a turn the system started (a job's run, the heartbeat, a check) may not run a dangerous command. */
export const SCHEDULED_DENIAL =
  'scheduled turns (jobs, heartbeat, checks) cannot run dangerous commands; nobody is there to approve it. The owner can run it in a chat';

/** Why a turn without an owner to ask (the platform lets everyone in, or the turn has no chat) is denied. */
export function noOwnerDenial(params: { platform: string | undefined }): string {
  return params.platform === undefined
    ? 'no one can approve commands here (this turn answers no chat)'
    : `no one can approve commands here: ${params.platform} has no owner (set its allowed_users in config)`;
}

/**
 * The approval policy for one dangerous command, in order: mode off allows; a system-started turn is denied; every
 * match covered by an "always" rule allows ('rule'; never an unchecked command, see isRememberable); every match allowed for this session (or by a rule) allows
 * ('session'); smart mode lets the auxiliary model judge; otherwise the owner is asked (where there is none: denied).
 */
export function policyVerdict(params: {
  mode: ApprovalMode;
  startedBy: 'job' | 'heartbeat' | 'check' | undefined;
  matches: readonly ApprovalMatch[];
  /** Pattern ids with an "always" rule. */
  rules: ReadonlySet<string>;
  /** Pattern ids the owner allowed for this session. */
  sessionAllowed: ReadonlySet<string>;
}): PolicyVerdict {
  const { matches } = params;
  if (params.mode === 'off') return { kind: 'allow', how: 'off' };
  if (params.startedBy !== undefined) return { kind: 'deny', reason: SCHEDULED_DENIAL };
  const remembered = matches.length > 0 && matches.every((m) => isRememberable(m));
  if (remembered && matches.every((m) => params.rules.has(m.patternId))) return { kind: 'allow', how: 'rule' };
  if (remembered && matches.every((m) => params.rules.has(m.patternId) || params.sessionAllowed.has(m.patternId))) return { kind: 'allow', how: 'session' };
  return params.mode === 'smart' ? { kind: 'judge' } : { kind: 'ask' };
}
