/** What kind of failure a model call hit. */
export type ModelErrorKind =
  | 'aborted'
  | 'auth'
  | 'not_found'
  | 'rate_limit'
  | 'quota'
  | 'context_too_long'
  | 'bad_request'
  | 'server'
  | 'timeout'
  | 'connection'
  | 'unknown';

/** A model-call failure, classified so the loop knows whether to retry and what to tell the user. */
export interface ClassifiedError {
  /** The kind of failure. */
  kind: ModelErrorKind;
  /** True when the same request may succeed if sent again later. */
  retryable: boolean;
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
