/** Why a model call failed: one reason per failure. */
export type FailureReason =
  | 'auth'
  | 'out_of_credit'
  | 'rate_limit'
  | 'context_overflow'
  | 'model_not_found'
  | 'bad_request'
  | 'server_error'
  | 'overloaded'
  | 'timeout'
  | 'connection'
  | 'content_filter'
  | 'aborted'
  | 'unknown';

/** Told of every request to a model, each retry and fallback too: `ok`, or why it failed (metrics). */
export type OnModelAttempt = (params: { outcome: 'ok' | FailureReason }) => void;

/** What the loop should do about a failure; the loop reads only these. */
export interface FailureFlags {
  /** The same request on the same key may succeed if sent again later (after backoff). */
  retryable: boolean;
  /** The conversation is too long: compress it and retry once. */
  shouldCompress: boolean;
  /** This key is unusable for now (out of credit, rejected, or rate-limited past its retries): switch key. */
  shouldRotateCredential: boolean;
  /** This endpoint or model cannot answer (after retries when retryable): try the next fallback model. */
  shouldFallback: boolean;
}

/** A model-call failure, classified so the loop knows what to do and what to tell the user. */
export interface ClassifiedError extends FailureFlags {
  /** Why it failed. */
  reason: FailureReason;
  /** How long the provider asked us to wait (Retry-After / retry-after-ms), if it said. */
  retryAfterMs?: number;
  /** What went wrong and what to do, safe to show in chat (never contains the API key). */
  userMessage: string;
}

/** Longest provider message quoted to the user. */
const MAX_QUOTED_CHARS = 300;

/** Removes API keys and bearer tokens from text that may be shown to the user or logged. */
export function redactSecrets(params: { text: string; secrets?: readonly string[] }): string {
  let text = params.text;
  for (const secret of params.secrets ?? []) {
    if (secret.length >= 4) text = text.split(secret).join('***');
  }
  return text
    .replace(/\bsk-[A-Za-z0-9_*.-]{6,}/g, 'sk-***')
    .replace(/\bBearer\s+\S+/gi, 'Bearer ***')
    .slice(0, MAX_QUOTED_CHARS);
}

/** A base URL without credentials, query or fragment, for messages. */
export function displayBaseURL(params: { baseURL: string | undefined }): string {
  if (!params.baseURL) return 'the configured base_url';
  try {
    const url = new URL(params.baseURL);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/$/, '')}`;
  } catch {
    return 'the configured base_url';
  }
}

/** The logging the agent does; a pino logger fits. */
export interface AgentLogger {
  /** Detail for debugging. */
  debug(obj: object, msg?: string): void;
  /** Something worth knowing that is not a problem (falls back to debug when absent). */
  info?(obj: object, msg?: string): void;
  /** Something went wrong but was handled. */
  warn(obj: object, msg?: string): void;
}
