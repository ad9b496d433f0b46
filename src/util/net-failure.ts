import { STATUS_CODES } from 'node:http';
import type { Logger } from 'pino';
import { errorMessage } from './error-text.js';

/**
 * The one classifier of expected network failures (a refused connection, an unknown host, a timeout, TLS, a
 * platform's 401/404...), shared by the supervisor, the adapters and `hermes doctor`: such a failure is logged as one
 * line with its cause in words and no stack (the stack only at level debug); anything else keeps its stack.
 */

/** Codes of a failed connection, with the words a log line uses for them. */
const CONNECT_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ECONNABORTED: 'connection aborted',
  EPIPE: 'connection closed',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host not found (DNS lookup failed)',
  ETIMEDOUT: 'connection timed out',
  ESOCKETTIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_HEADERS_TIMEOUT: 'no answer in time',
  UND_ERR_SOCKET: 'connection closed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  // imapflow's own: no TCP connection, no greeting, no STARTTLS upgrade, or a silent socket, in time.
  CONNECT_TIMEOUT: 'connection timed out',
  GREETING_TIMEOUT: 'no greeting from the server in time',
  UPGRADE_TIMEOUT: 'TLS upgrade timed out',
  ETIMEOUT: 'connection timed out',
};

/** grammy's own request timeout (a plain Error inside its HttpError): "Request to 'getMe' timed out after 500 seconds". */
const GRAMMY_TIMEOUT = /^Request to '[^']+' timed out after \d+ seconds$/;

/** OpenSSL verification codes node passes through as they are. */
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
]);

/** What an HTTP status from a platform means, where a status alone says it. */
const STATUS_MEANINGS: Readonly<Record<number, string>> = {
  401: 'the token was rejected',
  403: 'the token is not allowed to do this',
  404: 'wrong token or API address',
  429: 'rate limited',
};

/** Slack's words for a token it does not take. */
const SLACK_TOKEN_ERRORS = new Set(['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired']);

/** An error and what it wraps (cause, grammy's `error`, Slack's `original`, AggregateError's `errors`), outermost first. */
function errorChain(error: unknown): Record<string, unknown>[] {
  const seen = new Set<unknown>();
  const out: Record<string, unknown>[] = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && out.length < 16) {
    const item = queue.shift();
    if (item === null || typeof item !== 'object' || seen.has(item)) continue;
    seen.add(item);
    const record = item as Record<string, unknown>;
    out.push(record);
    queue.push(record['cause'], record['error'], record['original']);
    if (Array.isArray(record['errors'])) queue.push(...(record['errors'] as unknown[]));
  }
  return out;
}

/** The error code (ECONNREFUSED, ENOTFOUND, UND_ERR_..., ERR_TLS_...) somewhere in an error's cause chain. */
export function networkCode(error: unknown): string | undefined {
  for (const record of errorChain(error)) {
    const code = record['code'];
    if (typeof code === 'string' && /^[A-Z][A-Z0-9_]+$/.test(code)) return code;
  }
  return undefined;
}

/** Whether a code names a TLS (certificate or handshake) failure. */
function isTlsCode(code: string): boolean {
  return code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.startsWith('CERT_') || TLS_CODES.has(code);
}

/** host:port (or host) the failed connection went to, from the error's fields or its message. */
function addressOf(chain: readonly Record<string, unknown>[]): string | undefined {
  for (const record of chain) {
    const address = record['address'];
    const port = record['port'];
    if (typeof address === 'string') return typeof port === 'number' ? `${address.includes(':') ? `[${address}]` : address}:${port}` : address;
    const hostname = record['hostname'];
    if (typeof hostname === 'string' && hostname !== '') return hostname;
  }
  for (const record of chain) {
    const message = record['message'];
    const match = typeof message === 'string' ? /\b(?:connect|getaddrinfo|read|write|queryA+) [A-Z_]+ ([^\s,]+)/.exec(message) : null;
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}

/** An HTTP status (with the platform's own words) somewhere in the chain: grammy's error_code, status, statusCode. */
function httpFailure(chain: readonly Record<string, unknown>[]): string | undefined {
  for (const record of chain) {
    const data = record['data'];
    const slackError = data !== null && typeof data === 'object' ? (data as Record<string, unknown>)['error'] : undefined;
    if (typeof slackError === 'string' && SLACK_TOKEN_ERRORS.has(slackError)) return `401 Unauthorized: ${STATUS_MEANINGS[401]} (${slackError})`;
    if (record['code'] === 'TokenInvalid') return `401 Unauthorized: ${STATUS_MEANINGS[401]}`;
    if (record['authenticationFailed'] === true) return 'login refused: the server rejected the username or password';
    const status = [record['error_code'], record['status'], record['statusCode']].find((value): value is number => typeof value === 'number' && value >= 400 && value <= 599);
    if (status === undefined) continue;
    const name = STATUS_CODES[status] ?? 'HTTP error';
    const said = typeof record['description'] === 'string' ? record['description'] : undefined;
    const meaning = STATUS_MEANINGS[status] ?? (said !== undefined && !said.includes(name) ? said : undefined);
    return meaning === undefined ? `${status} ${name}` : `${status} ${name}: ${meaning}`;
  }
  return undefined;
}

/**
 * The cause of an expected failure in words, e.g. "connection refused 127.0.0.1:9", "host not found api.example.org",
 * "TLS failure 10.0.0.1:443 (DEPTH_ZERO_SELF_SIGNED_CERT)", "401 Unauthorized: the token was rejected"; undefined when
 * the error is not one of those (a bug, which deserves its stack).
 */
export function expectedFailureCause(params: { error: unknown }): string | undefined {
  const chain = errorChain(params.error);
  const http = httpFailure(chain);
  if (http !== undefined) return http;
  const code = networkCode(params.error);
  const where = addressOf(chain);
  const at = where === undefined ? '' : ` ${where}`;
  if (code !== undefined && CONNECT_CODES[code] !== undefined) return `${CONNECT_CODES[code]}${at}`;
  if (code !== undefined && isTlsCode(code)) return `TLS failure${at} (${code})`;
  // An AbortError is an SDK's own deadline (discord.js REST aborts a request after 15 s): the callers of this drop
  // failures that come from the gateway stopping before they log them.
  if (chain.some((record) => record['name'] === 'TimeoutError' || record['name'] === 'AbortError' || (typeof record['message'] === 'string' && GRAMMY_TIMEOUT.test(record['message'])))) return `timed out${at}`;
  if (chain.some((record) => record['message'] === 'bad port')) return 'fetch refuses this port as unsafe (use another port)';
  return undefined;
}

/** What a log line about a failure carries: its cause in words when expected, else the error (with its stack). */
export interface FailureLog {
  /** Fields for the log line: `cause`, plus `err` for an unexpected error or at level debug. */
  readonly fields: { readonly cause?: string; readonly err?: unknown };
  /** The message, with ": <cause>" after it when the failure is expected. */
  readonly msg: string;
  /** The cause when expected, else the error's own message: for status lines (`hermes status`). */
  readonly text: string;
}

/** The one log line for `error` after `msg`: an expected failure names its cause and has no stack unless debug is on. */
export function failureLog(params: { error: unknown; msg: string; logger: Logger }): FailureLog {
  const { error, msg } = params;
  const cause = expectedFailureCause({ error });
  const own = errorMessage(error);
  if (cause === undefined) return { fields: { err: error }, msg, text: own };
  const debug = params.logger.isLevelEnabled('debug');
  // A raw network error ("connect ECONNREFUSED 127.0.0.1:9") says no more than its cause; a message that names the cause
  // already keeps its own words, which say which server or call ("IMAP 10.0.0.5:993: connection refused 10.0.0.5:993");
  // any other gets the cause after it ("Network request for 'getMe' failed! (connection refused 127.0.0.1:9)").
  const raw = error instanceof Error && networkCode(error) !== undefined && (error as Error & { code?: unknown }).code === networkCode(error);
  const text = own.includes(cause) ? own : raw ? cause : `${own} (${cause})`;
  return { fields: debug ? { cause, err: error } : { cause }, msg: `${msg}: ${cause}`, text };
}
