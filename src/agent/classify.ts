import OpenAI from 'openai';
import { displayBaseURL, redactSecrets, type ClassifiedError } from './errors.js';

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

/** Sorts an openai SDK error into retryable or not, with a message for the user. */
export function classifyError(params: ClassifyParams): ClassifiedError {
  const { error } = params;
  const where = displayBaseURL({ baseURL: params.baseURL });
  const quote = (text: string): string => redactSecrets({ text, secrets: params.apiKey ? [params.apiKey] : [] });
  if (error instanceof OpenAI.APIUserAbortError || (error instanceof Error && error.name === 'AbortError')) {
    return { kind: 'aborted', retryable: false, userMessage: 'The request to the model was cancelled.' };
  }
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return {
      kind: 'timeout',
      retryable: true,
      userMessage: `The model server at ${where} did not answer in time. Check that it is running and not overloaded.`,
    };
  }
  if (error instanceof OpenAI.APIConnectionError) {
    const cause = error.cause instanceof Error ? ` (${quote(error.cause.message)})` : '';
    return {
      kind: 'connection',
      retryable: true,
      userMessage:
        `Could not reach the model server at ${where}${cause}. ` +
        'Check model.base_url and that the server is running.',
    };
  }
  if (error instanceof OpenAI.APIError) return classifyApiError({ ...params, error, where, quote });
  if (error instanceof TypeError && /terminated|socket|network|fetch failed/i.test(error.message)) {
    return {
      kind: 'connection',
      retryable: true,
      userMessage: `The connection to the model server at ${where} broke off (${quote(error.message)}).`,
    };
  }
  const text = error instanceof Error ? error.message : String(error);
  return { kind: 'unknown', retryable: false, userMessage: `Unexpected error while talking to the model: ${quote(text)}` };
}

function classifyApiError(params: ClassifyParams & {
  error: InstanceType<typeof OpenAI.APIError>;
  where: string;
  quote: (text: string) => string;
}): ClassifiedError {
  const { error, where, quote } = params;
  const status = error.status;
  const detail = quote(providerMessage(error));
  const said = detail ? `: ${detail}` : '';
  const model = params.model ? `"${params.model}"` : 'the configured model';
  if (status === undefined) {
    return { kind: 'server', retryable: true, userMessage: `The model provider reported an error mid-response${said}.` };
  }
  if (status === 401 || status === 403) {
    const access = status === 403 ? `, and that the key may use ${model}` : '';
    return {
      kind: 'auth',
      retryable: false,
      userMessage:
        `The model provider at ${where} rejected the API key (HTTP ${status})${said}. ` +
        `Check model.api_key in config.yaml or OPENAI_API_KEY in the profile's .env${access}.`,
    };
  }
  if (status === 404) {
    return {
      kind: 'not_found',
      retryable: false,
      userMessage:
        `The model provider answered 404 for model ${model} at ${where}${said}. ` +
        'The model name or model.base_url is wrong.',
    };
  }
  if (status === 429) {
    if (error.code === 'insufficient_quota') {
      return {
        kind: 'quota',
        retryable: false,
        userMessage: `The model provider says the account is out of quota${said}. Check the plan and billing for this API key.`,
      };
    }
    return {
      kind: 'rate_limit',
      retryable: true,
      retryAfterMs: retryAfterMs({ headers: error.headers, now: params.now }),
      userMessage: `The model provider is rate limiting requests (HTTP 429)${said}. Wait a minute and try again.`,
    };
  }
  if (status === 408 || status === 409 || status >= 500) {
    return {
      kind: 'server',
      retryable: true,
      retryAfterMs: retryAfterMs({ headers: error.headers, now: params.now }),
      userMessage: `The model provider had a temporary problem (HTTP ${status})${said}. Try again in a moment.`,
    };
  }
  const overflow = /context (length|window)|too many tokens|maximum context/i;
  if (error.code === 'context_length_exceeded' || overflow.test(detail)) {
    return {
      kind: 'context_too_long',
      retryable: false,
      userMessage: `The conversation is too long for ${model}'s context window${said}. Send /new to start a fresh conversation.`,
    };
  }
  return {
    kind: 'bad_request',
    retryable: false,
    userMessage: `The model provider rejected the request (HTTP ${status})${said}. Check the model settings in config.yaml.`,
  };
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
