import { DEFAULT_PROFILE_NAME } from '../home/profile.js';
import type { ApprovalRule } from '../store/approval-store.js';
import { systemClock, type Clock } from '../core/clock.js';
import { loadExistingProfile, type GlobalOptions } from './context.js';
import { println, type CliIO } from './output.js';
import { withProfileStore } from './profile-store.js';

/** What `hermes approvals <action>` may do. */
export type ApprovalsCliAction = 'list' | 'revoke';

/** One rule as `hermes approvals list` prints it. */
function ruleText(params: { rule: ApprovalRule }): string {
  const { rule } = params;
  const when = `${new Date(rule.createdAt).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  return `${rule.patternId} — ${rule.description}\n  example: ${rule.example}\n  since: ${when}`;
}

/**
 * `hermes approvals list | revoke <pattern-id>`: the profile's "always allow" rules for dangerous commands (made by
 * the owner's *Always allow* or `/approve always`), and removing one so such commands ask again. Exit 0 on success,
 * 1 when there is no such rule, 66 for a profile that does not exist. A running gateway reads the rules at each command.
 */
export async function approvalsCommand(params: { options: GlobalOptions; io: CliIO; action: ApprovalsCliAction; patternId?: string; clock?: Clock }): Promise<number> {
  const { io } = params;
  const loaded = await loadExistingProfile(params);
  const flag = loaded.profile.name === DEFAULT_PROFILE_NAME ? '' : ` -p ${loaded.profile.name}`;
  const result = withProfileStore({
    profile: loaded.profile,
    clock: params.clock ?? systemClock,
    missing: 'approval rules',
    hint: `Start the gateway (\`hermes${flag} gateway run\`); rules are made when the owner answers "Always allow".`,
    use: (store): { ok: true; text: string } | { ok: false; error: string } => {
      const rules = store.approvalRules();
      if (params.action === 'list') {
        if (rules.length === 0) return { ok: true, text: 'No always-allow rules: every dangerous command asks the owner (answer "Always allow" or /approve always to add one).' };
        return { ok: true, text: rules.map((rule) => ruleText({ rule })).join('\n') };
      }
      const patternId = params.patternId ?? '';
      if (!store.removeApprovalRule({ patternId })) {
        const known = rules.length === 0 ? 'there are none' : `rules: ${rules.map((r) => r.patternId).join(', ')}`;
        return { ok: false, error: `no always-allow rule for "${patternId}" (${known})` };
      }
      return { ok: true, text: `Removed the always-allow rule for ${patternId}: such commands ask the owner again.` };
    },
  });
  if (!result.ok) {
    println({ stream: io.stderr, text: `error: ${loaded.redactor.scrub(result.error)}` });
    return 1;
  }
  println({ stream: io.stdout, text: loaded.redactor.scrub(result.text) });
  return 0;
}
