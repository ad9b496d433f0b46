import type { Logger } from 'pino';
import type { AuxiliaryComplete } from '../../agent/auxiliary/client.js';
import type { ApprovalStore } from '../../store/approval-store.js';
import type { ApprovalCapability, ApprovalDecision } from '../../tools/capabilities.js';
import type { MessageEvent, PlatformAdapter } from '../../core/adapter.js';
import type { ChatPacer } from '../delivery/pacer.js';
import type { ApprovalDesk } from './desk.js';
import { judgeCommand } from './judge.js';
import { noOwnerDenial, policyVerdict, type ApprovalMode } from './policy.js';

/** The approval settings of a config (`tools.approval`, `tools.approval_timeout`) and the smart mode's judge. */
export interface ApprovalSettings {
  readonly mode: ApprovalMode;
  readonly timeoutMs: number;
  /** The auxiliary model (else the main one) for `smart`; without it smart asks the owner. */
  readonly judge?: AuxiliaryComplete;
}

/**
 * The `ApprovalCapability` of one turn: the policy (policy.ts), then in smart mode the auxiliary model's verdict, then
 * the owner asked in the turn's chat through `desk`. Never rejects; every decision is logged in one line.
 */
export function approvalCapability(params: {
  desk: ApprovalDesk;
  settings: ApprovalSettings;
  store: Pick<ApprovalStore, 'approvalRules'>;
  event: MessageEvent;
  sessionKey: string;
  adapter: PlatformAdapter;
  pacer: ChatPacer;
  /** Whether the turn's platform has anyone who can answer. */
  hasOwner: boolean;
  scrub: (text: string) => string;
  logger: Logger;
}): ApprovalCapability {
  const { desk, settings, event, logger } = params;
  const startedBy = event.system?.kind;
  const decideOnce = async (request: Parameters<ApprovalCapability['decide']>[0]): Promise<ApprovalDecision> => {
    const command = params.scrub(request.command);
    const matches = request.matches.map((m) => (m.segment === undefined ? m : { ...m, segment: params.scrub(m.segment) }));
    const rules = new Set(params.store.approvalRules().map((r) => r.patternId));
    const verdict = policyVerdict({ mode: settings.mode, startedBy, matches: request.matches, rules, sessionAllowed: desk.sessionAllowed({ sessionKey: params.sessionKey }) });
    if (verdict.kind === 'allow') return { approved: true, how: verdict.how };
    if (verdict.kind === 'deny') return { approved: false, reason: verdict.reason };
    if (verdict.kind === 'judge' && settings.judge !== undefined) {
      const judged = await judgeCommand({ complete: settings.judge, command, matches, signal: request.signal });
      if (judged.kind === 'approve') return { approved: true, how: 'smart' };
      if (judged.kind === 'deny') return { approved: false, reason: `the reviewing model denied it: ${judged.reason}` };
      logger.info({ why: judged.why }, 'smart approval escalated to the owner');
    }
    if (!params.hasOwner) return { approved: false, reason: noOwnerDenial({ platform: event.platform }) };
    return desk.ask({
      sessionKey: params.sessionKey,
      platform: event.platform,
      chat: event.chat,
      adapter: params.adapter,
      pacer: params.pacer,
      tool: request.tool,
      command,
      matches,
      timeoutMs: settings.timeoutMs,
      signal: request.signal,
    });
  };
  return {
    decide: async (request) => {
      let decision: ApprovalDecision;
      try {
        decision = await decideOnce(request);
      } catch (error) {
        logger.warn({ err: error }, 'approval failed; the command is denied');
        decision = { approved: false, reason: 'the approval could not be decided (see the gateway log)' };
      }
      const patterns = request.matches.map((m) => m.patternId);
      logger.info({ tool: request.tool, patterns, approved: decision.approved, ...(decision.approved ? { how: decision.how } : { reason: decision.reason }) }, 'dangerous command approval');
      return decision;
    },
  };
}
