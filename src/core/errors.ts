/** The platform said "too many requests": nothing was done; try the same call again after `retryAfterMs`. */
export class RateLimitError extends Error {
  override readonly name = 'RateLimitError';
  /** How long the platform asked us to wait before calling it again. */
  readonly retryAfterMs: number;
  /** The platform method that was refused (e.g. "editMessageText"). */
  readonly method: string;

  constructor(params: { retryAfterMs: number; method: string; message?: string }) {
    super(params.message ?? `${params.method} rate limited; retry after ${params.retryAfterMs} ms`);
    this.retryAfterMs = params.retryAfterMs;
    this.method = params.method;
  }
}

/** A user-facing failure: `message` says what went wrong, `hint` what to do. */
export class UserFacingError extends Error {
  override readonly name: string = 'UserFacingError';
  /** What the user should do about it. */
  readonly hint: string | undefined;
  /** Process exit code when this ends a CLI command. */
  readonly exitCode: number;

  constructor(params: { message: string; hint?: string; exitCode?: number; cause?: unknown }) {
    super(params.message, { cause: params.cause });
    this.hint = params.hint;
    this.exitCode = params.exitCode ?? 1;
  }
}

/** An adapter failure that retrying cannot fix (e.g. a revoked token); the supervisor stops restarting it. */
export class AdapterFatalError extends Error {
  override readonly name = 'AdapterFatalError';
  /** What the owner should do about it. */
  readonly hint: string | undefined;

  constructor(params: { message: string; hint?: string; cause?: unknown }) {
    super(params.message, { cause: params.cause });
    this.hint = params.hint;
  }
}

/**
 * The gateway could not journal an inbound message (its disk refuses writes), so it did not take it: the adapter
 * must not acknowledge it, and the platform delivers it again later.
 */
export class JournalRefusedError extends Error {
  override readonly name = 'JournalRefusedError';
  /** Why, in the words /healthz uses ("disk full"). */
  readonly reason: string;
  /** What a webhook answers in Retry-After (with 503): the disk is probed every few seconds, so soon. */
  readonly retryAfterSeconds: number = 30;

  constructor(params: { reason: string; cause?: unknown }) {
    super(`the gateway cannot journal messages right now (${params.reason}); deliver this message again later`, { cause: params.cause });
    this.reason = params.reason;
  }
}

/** A failure whose message is written for the model and passed to it verbatim. */
export class ToolError extends Error {
  override readonly name: string = 'ToolError';
}
