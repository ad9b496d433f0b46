import { networkCode } from '../../src/util/net-failure.js';
import { CheckTimeoutError } from '../../src/util/timeout.js';
import { errorMessage } from '../../src/util/error-text.js';

/** The error code in an error's cause chain (the classifier shared with the log lines: src/util/net-failure.ts). */
export { networkCode };

/** Why a request to `what` (e.g. "127.0.0.1:8080") failed, in words: cannot connect, no answer, host not found... */
export function describeNetworkError(params: { error: unknown; signal: AbortSignal; what: string }): string {
  const { error, signal, what } = params;
  if (signal.aborted && signal.reason instanceof CheckTimeoutError) return `${what}: ${signal.reason.message}`;
  const code = networkCode(error);
  if (code === 'ECONNREFUSED') return `cannot connect to ${what} (connection refused: nothing listens there)`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `cannot connect to ${what} (host name not found)`;
  if (code === 'ECONNRESET') return `cannot connect to ${what} (connection reset)`;
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return `cannot connect to ${what} (connection timed out)`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return `cannot connect to ${what} (${code}: host unreachable)`;
  if (code?.startsWith('ERR_TLS') === true || code?.startsWith('CERT_') === true) return `cannot connect to ${what} (TLS problem: ${code})`;
  const message = errorMessage(error);
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : undefined;
  if (cause === 'bad port') return `cannot connect to ${what} (fetch refuses this port as unsafe: use another port)`;
  return `request to ${what} failed (${code ?? (cause === undefined ? message : `${message}: ${cause}`)})`;
}

/** host:port of a URL, for messages (never its path, which may hold a token). */
export function hostOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.host || url;
  } catch {
    return url;
  }
}
