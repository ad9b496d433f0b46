import type { GatewayConfig } from '../../src/config/schema.js';

/** What a platform's credentials check found (used by `hermes doctor`). */
export interface CredentialCheckResult {
  /** The credentials work against the platform's API. */
  readonly ok: boolean;
  /** One line: who the bot is ("@work_bot"), or what went wrong. Never a secret. */
  readonly detail: string;
  /** What to do about a failure. */
  readonly hint?: string;
}

/**
 * Checks one enabled platform's credentials with a single cheap API call (Telegram getMe, Slack auth.test,
 * IMAP login, ...). Must honour `signal` (doctor aborts it after a short timeout) and never throw.
 */
export type CredentialCheck = (params: { config: GatewayConfig; signal: AbortSignal }) => Promise<CredentialCheckResult>;
