/**
 * The dangerous-command approval part of the Store: the profile's "always allow" rules. A rule names a pattern of
 * the dangerous-command table (src/tools/approval/danger-patterns.ts); a command matching only patterns with a rule
 * runs without asking. Listed and removed with `hermes approvals list | revoke`.
 */

/** One "always allow" rule. */
export interface ApprovalRule {
  /** The dangerous pattern's id (e.g. `recursive-delete`). */
  readonly patternId: string;
  /** The pattern's description when the rule was made (shown in listings). */
  readonly description: string;
  /** The command whose approval made the rule (scrubbed), as a reminder. */
  readonly example: string;
  /** When it was made (ms since the epoch). */
  readonly createdAt: number;
}

/** Methods of the Store for approval rules. */
export interface ApprovalStore {
  // Function-typed properties rather than methods: they use no `this`, so the store passes them on unbound.
  /** Every rule, oldest first. */
  approvalRules: () => ApprovalRule[];
  /** Adds a rule (or refreshes its description and example when it exists); returns it. */
  addApprovalRule: (params: { patternId: string; description: string; example: string }) => ApprovalRule;
  /** Removes a rule; false when there was none. */
  removeApprovalRule: (params: { patternId: string }) => boolean;
}
