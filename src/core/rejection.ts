import type { Logger } from 'pino';

/** Why a webhook request was turned away; one rate-limit bucket per source and reason. */
export type RejectionReason =
  | 'bad_signature'
  | 'bad_token'
  | 'stale_timestamp'
  | 'oversized'
  | 'timeout'
  | 'malformed'
  | 'bad_link'
  | 'internal'
  /** A message the journal refused (disk full): the platform is asked to deliver it again. */
  | 'journal_refused';

/** What the lines are written with (a pino logger, or fastify's request logger). */
export type RejectionLogger = Pick<Logger, 'warn' | 'error'>;

/** One rejected request, as the route saw it. */
export interface Rejection {
  /** Where it came from (the remote address); the rate limit is per source and reason. */
  readonly source: string;
  readonly reason: RejectionReason;
  /** The log line's message, e.g. "Telegram webhook request with a wrong secret token rejected". */
  readonly message: string;
  /** More fields for the first line of a window (never secrets). */
  readonly fields?: Readonly<Record<string, unknown>>;
  /** Log level of the lines (default warn). */
  readonly level?: 'warn' | 'error';
  /** The logger to write with, e.g. the adapter's (default the rejection log's own). */
  readonly logger?: RejectionLogger;
}

/** Where a webhook route reports a request it turned away (rate-limited log lines: see the gateway's RejectionLog). */
export interface RejectionRecorder {
  /** Records one rejected request. */
  reject(rejection: Rejection): void;
}
