import OpenAI from 'openai';
import { displayBaseURL, redactSecrets, type ClassifiedError, type FailureFlags, type FailureReason } from './errors.js';
import { maskKey, NO_KEY } from './route/keys.js';
import { expectedFailureCause } from '../util/net-failure.js';
import { errorMessage } from '../util/error-text.js';

/** Facts about the failed call that make messages precise. */
export interface ClassifyParams {
  /** What the SDK threw. */
  error: unknown;
  /** Model name that was requested. */
  model?: string;
  /** The client's base URL. */
  baseURL?: string;
  /** The API key, so it can be scrubbed from quoted provider messages. */
  apiKey?: string;
  /** Current time, for HTTP-date Retry-After headers. */
  now: number;
}

/** The flags each reason carries: the loop reads only these. */
const FLAGS: Readonly<Record<FailureReason, FailureFlags>> = {
  auth: flags({ rotate: true, fallback: true }),
  out_of_credit: flags({ rotate: true, fallback: true }),
  // Backs off on the same key first; after its retries the key cools down and the next key (then model) is tried.
  rate_limit: flags({ retry: true, rotate: true, fallback: true }),
  context_overflow: flags({ compress: true }),
  model_not_found: flags({ fallback: true }),
  bad_request: flags({}),
  server_error: flags({ retry: true, fallback: true }),
  overloaded: flags({ retry: true, fallback: true }),
  timeout: flags({ retry: true, fallback: true }),
  connection: flags({ retry: true, fallback: true }),
  content_filter: flags({}),
  aborted: flags({}),
  unknown: flags({}),
};

function flags(params: { retry?: boolean; compress?: boolean; rotate?: boolean; fallback?: boolean }): FailureFlags {
  return {
    retryable: params.retry ?? false,
    shouldCompress: params.compress ?? false,
    shouldRotateCredential: params.rotate ?? false,
    shouldFallback: params.fallback ?? false,
  };
}

/** A classification for a reason, with its flags. */
function failure(params: { reason: FailureReason; userMessage: string; retryAfterMs?: number | undefined }): ClassifiedError {
  return {
    reason: params.reason,
    ...FLAGS[params.reason],
    ...(params.retryAfterMs !== undefined ? { retryAfterMs: params.retryAfterMs } : {}),
    userMessage: params.userMessage,
  };
}

/** Sorts an openai SDK error into one reason with its flags, and a message for the user. */
export function classifyError(params: ClassifyParams): ClassifiedError {
  const { error } = params;
  const where = displayBaseURL({ baseURL: params.baseURL });
  const quote = (text: string): string => redactSecrets({ text, secrets: params.apiKey ? [params.apiKey] : [] });
  if (error instanceof OpenAI.APIUserAbortError || (error instanceof Error && error.name === 'AbortError')) {
    return failure({ reason: 'aborted', userMessage: 'The request to the model was cancelled.' });
  }
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return failure({
      reason: 'timeout',
      userMessage: `The model server at ${where} did not answer in time. Check that it is running and not overloaded.`,
    });
  }
  if (error instanceof OpenAI.APIConnectionError) {
    // "connection refused 127.0.0.1:9", "host not found api.example.org" rather than fetch's own "fetch failed".
    const words = expectedFailureCause({ error: error.cause }) ?? (error.cause instanceof Error ? error.cause.message : undefined);
    const cause = words !== undefined ? ` (${quote(words)})` : '';
    return failure({
      reason: 'connection',
      userMessage:
        `Could not reach the model server at ${where}${cause}. ` +
        'Check model.base_url and that the server is running.',
    });
  }
  // instanceof leaves the SDK's type parameters as any; the error is the SDK's default APIError.
  if (error instanceof OpenAI.APIError) return classifyApiError({ ...params, error: error as InstanceType<typeof OpenAI.APIError>, where, quote });
  const errno = networkCode({ error });
  if (errno !== undefined) {
    const timedOut = TIMEOUT_CODES.has(errno);
    return failure({
      reason: timedOut ? 'timeout' : 'connection',
      userMessage: timedOut
        ? `The model server at ${where} did not answer in time (${errno}). Check that it is running and not overloaded.`
        : `The connection to the model server at ${where} failed (${errno}). Check model.base_url and that the server is running.`,
    });
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    return failure({ reason: 'timeout', userMessage: `The model server at ${where} did not answer in time. Check that it is running and not overloaded.` });
  }
  if (error instanceof TypeError && /terminated|socket|network|fetch failed/i.test(error.message)) {
    return failure({
      reason: 'connection',
      userMessage: `The connection to the model server at ${where} broke off (${quote(error.message)}).`,
    });
  }
  const text = errorMessage(error);
  return failure({ reason: 'unknown', userMessage: `Unexpected error while talking to the model: ${quote(text)}` });
}

/** Socket and DNS error codes (node and undici) that mean the server could not be reached or the connection broke. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'ENOTFOUND', 'EAI_AGAIN',
  'ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT',
]);
/** The codes among them that are a timeout rather than a refusal or a break. */
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** The first socket/DNS error code on the error or its causes (a stream read that broke throws a bare `Error`). */
function networkCode(params: { error: unknown }): string | undefined {
  let current: unknown = params.error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Provider wording for an exhausted account (OpenAI sends it as a 429 with code insufficient_quota). */
const OUT_OF_CREDIT = /insufficient[_ ]quota|insufficient credits|out of credit|credit balance|exceeded your current quota|billing|payment required/i;
/** Provider wording for a prompt past the context window. */
const OVERFLOW = /context[_ ](length|window)|too many tokens|maximum context|prompt is too long|reduce the length|input is too long/i;
/** Provider wording for a refused prompt or reply. */
const FILTERED = /content[_ ]filter|content management policy|safety system|flagged/i;

/** What the messages about one HTTP error from the provider are made of. */
interface ApiErrorFacts {
  /** The HTTP status (or the one the body of an error event in a stream names). */
  readonly status: number;
  /** `HTTP <status>`, or `in the stream` for an error event inside a 200 stream. */
  readonly http: string;
  /** The provider's message, readable and with the key scrubbed ('' when there is none). */
  readonly detail: string;
  /** `: <detail>`, or '' when there is no detail. */
  readonly said: string;
  /** The requested model, quoted, or "the configured model". */
  readonly model: string;
  /** The error's string `code` ('' when there is none). */
  readonly code: string;
  /** ` <masked key>`, or '' when the key is absent, NO_KEY or too short to mask. */
  readonly key: string;
  /** Where the model server is (the display form of the base URL). */
  readonly where: string;
  /** The wait the response's Retry-After headers ask for. */
  readonly retryAfter: () => number | undefined;
}

/** Sorts an error the provider answered (an HTTP status, or an error event in a stream) by its status, code and message. */
function classifyApiError(params: ClassifyParams & {
  error: InstanceType<typeof OpenAI.APIError>;
  where: string;
  quote: (text: string) => string;
}): ClassifiedError {
  const { error, where, quote } = params;
  const detail = quote(readable({ text: providerMessage(error) }));
  const said = detail ? `: ${detail}` : '';
  const model = params.model ? `"${params.model}"` : 'the configured model';
  const code = typeof error.code === 'string' ? error.code : '';
  const retryAfter = (): number | undefined => retryAfterMs({ headers: error.headers, now: params.now });
  // An error event inside a 200 stream has no HTTP status; the body often names one (OpenRouter's numeric code,
  // Anthropic's error type, OpenAI's code).
  const status = error.status ?? statusFromBody({ body: error.error });
  const http = error.status !== undefined ? `HTTP ${status}` : 'in the stream';
  if (status === undefined) {
    return failure({ reason: 'server_error', userMessage: `The model provider reported an error mid-response${said}.` });
  }
  const key = params.apiKey !== undefined && params.apiKey !== NO_KEY && params.apiKey.length >= 8 ? ` ${maskKey({ key: params.apiKey })}` : '';
  const facts: ApiErrorFacts = { status, http, detail, said, model, code, key, where, retryAfter };
  return accountFailure({ facts }) ?? statusFailure({ facts }) ?? requestFailure({ facts });
}

/** An account that is out of credit, or a key that is refused (401, 403); undefined for any other error. */
function accountFailure(params: { facts: ApiErrorFacts }): ClassifiedError | undefined {
  const { status, http, detail, said, model, code, key, where } = params.facts;
  if (status === 402 || ([400, 403, 429].includes(status) && (code === 'insufficient_quota' || OUT_OF_CREDIT.test(detail)))) {
    return failure({
      reason: 'out_of_credit',
      userMessage:
        `The model provider says ${key ? `the account of API key${key}` : 'the account'} is out of credit (${http})${said}. ` +
        'Check the plan and billing for this key, or add another key to model.api_keys.',
    });
  }
  if (status === 401 || status === 403) {
    const access = status === 403 ? `, and that the key may use ${model}` : '';
    return failure({
      reason: 'auth',
      userMessage:
        `The model provider at ${where} rejected the API key${key} (${http})${said}. ` +
        `Check model.api_key / model.api_keys in config.yaml or OPENAI_API_KEY in the profile's .env${access}.`,
    });
  }
  return undefined;
}

/** The errors the status alone tells: too large, no such model, rate limited, overloaded, a temporary problem. */
function statusFailure(params: { facts: ApiErrorFacts }): ClassifiedError | undefined {
  const { status, detail, said, model, where, retryAfter } = params.facts;
  if (status === 413) {
    return failure({
      reason: 'context_overflow',
      userMessage: `The request is too large for the model provider (HTTP 413)${said}. Send /new to start a fresh conversation.`,
    });
  }
  if (status === 404) {
    return failure({
      reason: 'model_not_found',
      userMessage:
        `The model provider answered 404 for model ${model} at ${where}${said}. ` +
        'The model name or model.base_url is wrong.',
    });
  }
  if (status === 429) {
    return failure({
      reason: 'rate_limit',
      retryAfterMs: retryAfter(),
      userMessage: `The model provider is rate limiting requests (HTTP 429)${said}. Wait a minute and try again.`,
    });
  }
  if (status === 529 || (status >= 500 && /overloaded|over capacity/i.test(detail))) {
    return failure({
      reason: 'overloaded',
      retryAfterMs: retryAfter(),
      userMessage: `The model provider is overloaded (HTTP ${status})${said}. Try again in a moment.`,
    });
  }
  if (status === 408 || status === 409 || status >= 500) {
    return failure({
      reason: 'server_error',
      retryAfterMs: retryAfter(),
      userMessage: `The model provider had a temporary problem (HTTP ${status})${said}. Try again in a moment.`,
    });
  }
  return undefined;
}

/** A request the provider refused for what it holds: too long for the context window, filtered, or otherwise bad. */
function requestFailure(params: { facts: ApiErrorFacts }): ClassifiedError {
  const { status, detail, said, model, code } = params.facts;
  if (code === 'context_length_exceeded' || OVERFLOW.test(detail)) {
    return failure({
      reason: 'context_overflow',
      userMessage: `The conversation is too long for ${model}'s context window${said}. Send /new to start a fresh conversation.`,
    });
  }
  if (code === 'content_filter' || code === 'content_policy_violation' || FILTERED.test(detail)) {
    return failure({
      reason: 'content_filter',
      userMessage: `The model provider's content filter refused the request (HTTP ${status})${said}. Rephrase the message and try again.`,
    });
  }
  return failure({
    reason: 'bad_request',
    userMessage: `The model provider rejected the request (HTTP ${status})${said}. Check the model settings in config.yaml.`,
  });
}

/** HTTP statuses that Anthropic-style error types and OpenAI-style codes stand for. */
const BODY_STATUS: Readonly<Record<string, number>> = {
  overloaded_error: 529,
  rate_limit_error: 429,
  rate_limit_exceeded: 429,
  insufficient_quota: 429,
  api_error: 500,
  server_error: 500,
  authentication_error: 401,
  invalid_api_key: 401,
  permission_error: 403,
  not_found_error: 404,
  model_not_found: 404,
  request_too_large: 413,
  billing_error: 402,
  context_length_exceeded: 400,
  invalid_request_error: 400,
};

/** The status an error body names: a numeric `code` 400–599 (OpenRouter), else a known `code` or `type`. */
function statusFromBody(params: { body: unknown }): number | undefined {
  if (typeof params.body !== 'object' || params.body === null) return undefined;
  const { code, type } = params.body as { code?: unknown; type?: unknown };
  const numeric = typeof code === 'number' ? code : typeof code === 'string' && /^\d{3}$/.test(code) ? Number(code) : undefined;
  if (numeric !== undefined && numeric >= 400 && numeric <= 599) return numeric;
  for (const name of [code, type]) {
    if (typeof name === 'string' && Object.hasOwn(BODY_STATUS, name)) return BODY_STATUS[name];
  }
  return undefined;
}

/** Provider text fit for a chat line: an HTML error page (a proxy's 502) becomes its title, control characters and runs of blanks go. */
function readable(params: { text: string }): string {
  let { text } = params;
  if (/<\s*(!doctype|html|head|body|title)\b/i.test(text)) {
    const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
    const status = /^\d{3}\b/.exec(text)?.[0];
    text = `${status ? `${status} ` : ''}an HTML page${title ? ` titled "${title}"` : ''} instead of an API answer`;
  }
  // eslint-disable-next-line no-control-regex -- control characters in an error body become spaces
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s{2,}/g, ' ').trim();
}

/** The provider's own error message, without the SDK's status prefix. */
function providerMessage(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error;
  if (typeof body === 'object' && body !== null && 'message' in body && typeof body.message === 'string') {
    return body.message;
  }
  return error.message;
}

/** Milliseconds from retry-after-ms or Retry-After (seconds or HTTP date); undefined when absent or invalid. */
export function retryAfterMs(params: { headers: Headers | undefined; now: number }): number | undefined {
  const ms = params.headers?.get('retry-after-ms');
  if (ms) {
    const value = Number.parseFloat(ms);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const header = params.headers?.get('retry-after');
  if (!header) return undefined;
  const seconds = Number.parseFloat(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1_000;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - params.now);
}
