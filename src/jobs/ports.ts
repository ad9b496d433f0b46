import type { ChatRef, SystemOrigin } from '../core/adapter.js';

/**
 * What jobs need from the gateway, as types the gateway implements (runner.inject and its send path): jobs sit below
 * the gateway and never import it.
 */

/** How a turn ended: its answer delivered, deliberately silent, failed, stopped, or answered but not delivered. */
export type TurnOutcome = 'delivered' | 'silent' | 'error' | 'stopped' | 'undelivered';

/** A turn the system starts itself (a job's run, the heartbeat, a check): see GatewayRunner.inject. */
export interface InjectParams {
  readonly platform: string;
  readonly chat: ChatRef;
  /** What the agent is asked (the job's prompt). */
  readonly text: string;
  /** The session the turn runs in (a job's run: a key unique per run, so it is a fresh session). */
  readonly sessionKey: string;
  readonly origin: SystemOrigin;
  /** Unique per run (and attempt), stable across restarts: the journal key, so a replay after kill -9 finds the same row. */
  readonly messageId: string;
  /** The title of the session when it is new (a job's name). */
  readonly title?: string;
}

/** What `inject` did: queued (or already replaying: `finished` resolves when it ends), finished before (a restart found it done), or refused. */
export type InjectResult =
  | { readonly kind: 'queued'; readonly inboxId: number; readonly finished: Promise<InjectedTurnEnd> }
  | { readonly kind: 'finished'; readonly inboxId: number; readonly end: InjectedTurnEnd }
  | { readonly kind: 'refused'; readonly reason: string };

/** How a system-started turn ended, with the platform message ids its reply got (from the turn's outbox rows). */
export interface InjectedTurnEnd {
  /** `shutdown`: the gateway stopped first; the turn stays journaled and is finished in place after the next start. */
  readonly outcome: TurnOutcome | 'shutdown';
  readonly sessionId: string | null;
  readonly text: string;
  readonly error?: string;
  /** Parts of a delivered reply the platform refused (a file): recorded with the target's delivery. */
  readonly deliveryErrors?: readonly string[];
  readonly messageIds: readonly string[];
}

/** A text sent on its own: the platform's message ids (proof), or why it failed. */
export type SendTextResult =
  | {
      readonly ok: true;
      readonly messageIds: readonly string[];
      /** Messages and files this call put on the platform (0: an earlier attempt had sent, or a replay found, every part). */
      readonly sends?: number;
    }
  | { readonly ok: false; readonly error: string };
