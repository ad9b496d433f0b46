import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient.js';
import type * as TwilioResponse from 'twilio/lib/http/response.js';
import { AdapterFatalError, RateLimitError } from '../../src/core/errors.js';
import { rebase } from './account-check.js';

/** The Twilio REST client the adapter uses. */
export type TwilioClient = twilio.Twilio;

/** Wait after a Twilio 429 that named no Retry-After (Twilio rarely does). */
const DEFAULT_RETRY_AFTER_MS = 1000;

/**
 * Twilio's HTTP client with every request sent to `apiBase` instead of *.twilio.com (the SDK has no base-URL
 * option): for Twilio-compatible providers, proxies and tests. Path and query are kept.
 */
export class TwilioHttpClient extends twilio.RequestClient {
  private readonly apiBase: URL;

  constructor(params: { apiBase: string; timeoutMs?: number }) {
    super({ timeout: params.timeoutMs ?? 30_000, autoRetry: false });
    this.apiBase = new URL(params.apiBase);
  }

  /**
   * Sends the request to `apiBase`. A 429 becomes a RateLimitError here, where the response headers are still
   * at hand (the SDK's RestException drops them), so Twilio's Retry-After is honoured.
   */
  override async request<TData>(opts: RequestClient.RequestOptions<TData>): Promise<TwilioResponse.default<TData>> {
    const response = await super.request<TData>({ ...opts, uri: rebase({ uri: opts.uri, base: this.apiBase }) });
    if (response.statusCode === 429) {
      const retryAfterMs = retryAfterMsOf({ header: headerText({ headers: response.headers as unknown, name: 'retry-after' }), now: Date.now() });
      throw new RateLimitError({ retryAfterMs: retryAfterMs ?? DEFAULT_RETRY_AFTER_MS, method: `${opts.method.toUpperCase()} ${new URL(opts.uri).pathname}`, message: `Twilio rate limited the request (429)` });
    }
    return response;
  }
}

/** One header's value from a response's header object (names in any case), when it is text. */
function headerText(params: { headers: unknown; name: string }): string | undefined {
  if (params.headers === null || typeof params.headers !== 'object') return undefined;
  for (const [key, value] of Object.entries(params.headers)) {
    if (key.toLowerCase() === params.name && typeof value === 'string') return value;
  }
  return undefined;
}

/** A Retry-After header in ms (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function retryAfterMsOf(params: { header: string | undefined; now: number }): number | undefined {
  const value = params.header?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - params.now) : undefined;
}

/** A REST client for the account, talking to `apiBase`, never retrying by itself (the pacer does that). */
export function createTwilioClient(params: { accountSid: string; authToken: string; apiBase: string; timeoutMs?: number }): TwilioClient {
  const httpClient = new TwilioHttpClient({ apiBase: params.apiBase, ...(params.timeoutMs !== undefined ? { timeoutMs: params.timeoutMs } : {}) });
  return twilio(params.accountSid, params.authToken, { httpClient, autoRetry: false });
}

/** The HTTP status and Twilio error code of a failed REST call, when it was one. */
export function restFailure(params: { error: unknown }): { status: number; code: number | undefined; message: string } | undefined {
  const { error } = params;
  if (!(error instanceof twilio.RestException)) return undefined;
  return { status: error.status, code: error.code, message: error.message };
}

/** Whether a REST failure means the account SID or auth token is wrong (HTTP 401/403, Twilio 20003). */
export function isAuthFailure(params: { error: unknown }): boolean {
  const failure = restFailure(params);
  return failure !== undefined && (failure.status === 401 || failure.status === 403 || failure.code === 20003);
}

/**
 * A Twilio failure as the gateway handles it: 429 / error 20429 becomes RateLimitError (nothing was sent; the
 * pacer waits and calls again), bad credentials AdapterFatalError with a hint, anything else stays as it is.
 */
export function translateTwilioError(params: { error: unknown; method: string }): unknown {
  const failure = restFailure(params);
  if (failure === undefined) return params.error;
  if (failure.status === 429 || failure.code === 20429) {
    return new RateLimitError({ retryAfterMs: DEFAULT_RETRY_AFTER_MS, method: params.method, message: `Twilio ${params.method} rate limited (${failure.code ?? 429})` });
  }
  if (isAuthFailure(params)) {
    return new AdapterFatalError({
      message: `Twilio rejected the account SID or auth token (HTTP ${failure.status}${failure.code !== undefined ? `, error ${failure.code}` : ''})`,
      hint: 'Check platforms.sms.account_sid (AC...) and platforms.sms.auth_token against the Twilio console, then restart the gateway.',
      cause: params.error,
    });
  }
  return params.error;
}
