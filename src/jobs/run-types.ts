import type { Logger } from 'pino';
import type { ChatRef } from '../core/adapter.js';
import type { InjectParams, InjectResult } from './ports.js';
import type { SendTextResult } from './ports.js';
import type { Store } from '../store/types.js';
import type { TerminalLimits } from '../tools/tool.js';
import type { Clock } from '../core/clock.js';

/** What the scheduler and a job's run need from the gateway (given by the runner). */
export interface SchedulerDeps {
  readonly store: Store;
  readonly clock: Clock;
  readonly logger: Logger;
  /** runner.inject: a turn journaled, routed, paced and delivered like a user's message. */
  readonly inject: (params: InjectParams) => InjectResult;
  /**
   * Sends a run's answer to a further target (or a script's output); the platform's message ids are the proof. With
   * `journalId` (the inbox row journaling this run's send to this target) parts sent before are found, not sent again.
   */
  readonly sendText: (params: { platform: string; chat: ChatRef; text: string; journalId?: number }) => Promise<SendTextResult>;
  readonly profileName: () => string;
  /** config `cron.catch_up_window`. */
  readonly catchUpWindowMs: () => number;
  /** Takes the profile's secrets out of a text (a script's output, before it is kept with the run or sent). */
  readonly scrub: (text: string) => string;
  /** Where a script job's command runs, with the terminal tool's limits. */
  readonly script: () => { readonly workspace: string; readonly terminal: TerminalLimits };
}

/** How one attempt of a run ended, as recorded with finishRun. */
export type AttemptOutcome = 'delivered' | 'delivery_failed' | 'silent' | 'retrying' | 'failed' | 'left_open';
