import OpenAI from 'openai';
import { describeNetworkError, hostOf } from '../../../adapters/kit/net-error.js';

/** How long GET /models and the test request get: a local server loading a model may be slow to answer once. */
export const LIST_TIMEOUT_MS = 8_000;
/** How long the one tiny test request gets. */
export const TEST_TIMEOUT_MS = 30_000;

/** The model ids an endpoint lists, or why it could not list them. */
export type ModelList = { readonly ok: true; readonly ids: readonly string[] } | { readonly ok: false; readonly reason: string };

/** The outcome of the test request. */
export type TestResult = { readonly ok: true; readonly ms: number } | { readonly ok: false; readonly detail: string; readonly hint: string };

/** GET {baseUrl}/models with the key (if any) through the openai SDK, sorted; never throws. */
export async function listModels(params: { baseUrl: string; apiKey: string | undefined; signal?: AbortSignal }): Promise<ModelList> {
  const client = new OpenAI({ apiKey: params.apiKey ?? 'not-needed', baseURL: params.baseUrl, maxRetries: 0, timeout: LIST_TIMEOUT_MS });
  const signal = params.signal ?? new AbortController().signal;
  try {
    const ids: string[] = [];
    for await (const model of client.models.list({ signal })) {
      ids.push(model.id);
      if (ids.length >= 500) break;
    }
    return { ok: true, ids: ids.sort((a, b) => a.localeCompare(b)) };
  } catch (error) {
    if (error instanceof OpenAI.APIError && error.status !== undefined) return { ok: false, reason: `GET /models answered HTTP ${error.status}` };
    return { ok: false, reason: describeNetworkError({ error: unwrap(error), signal, what: hostOf(params.baseUrl) }) };
  }
}

/** One tiny chat request ("Reply with OK", a few tokens) to `model`; what went wrong and what to do when it fails. */
export async function testModel(params: { baseUrl: string; apiKey: string | undefined; model: string; now: () => number; signal?: AbortSignal }): Promise<TestResult> {
  const { baseUrl, model } = params;
  const client = new OpenAI({ apiKey: params.apiKey ?? 'not-needed', baseURL: baseUrl, maxRetries: 0, timeout: TEST_TIMEOUT_MS });
  const signal = params.signal ?? new AbortController().signal;
  const host = hostOf(baseUrl);
  const started = params.now();
  try {
    await client.chat.completions.create({ model, messages: [{ role: 'user', content: 'Reply with OK.' }], max_tokens: 5 }, { signal });
    return { ok: true, ms: params.now() - started };
  } catch (error) {
    if (error instanceof OpenAI.APIConnectionTimeoutError) {
      return { ok: false, detail: `${host} did not answer within ${TEST_TIMEOUT_MS / 1000}s`, hint: 'Is the server overloaded, or still loading the model? Try again in a minute.' };
    }
    if (error instanceof OpenAI.APIError && error.status !== undefined) return refusal({ status: error.status as number, message: error.message, host, model });
    return { ok: false, detail: describeNetworkError({ error: unwrap(error), signal, what: host }), hint: `Start the model server, or check the base URL (${baseUrl}).` };
  }
}

/** What an HTTP error of the test request means. */
function refusal(params: { status: number; message: string; host: string; model: string }): TestResult {
  const { status, host, model } = params;
  if (status === 401 || status === 403) return { ok: false, detail: `${host} refused the API key (HTTP ${status})`, hint: 'The key is wrong, revoked or for another provider: copy it again from the provider and rerun `hermes setup model`.' };
  if (status === 404) {
    return { ok: false, detail: `${host} does not know model "${model}" or the path (HTTP 404)`, hint: 'Pick a model the server lists, and check that the base URL ends where the API starts (often /v1).' };
  }
  if (status === 429) return { ok: false, detail: `${host} is rate limiting or out of credit (HTTP 429)`, hint: "Check the account's quota or billing, then try again." };
  // The server's own message (e.g. "model not loaded") is the best hint; it never holds the key we sent.
  return { ok: false, detail: `${host} answered HTTP ${status} to the test request: ${params.message.slice(0, 200)}`, hint: 'Check the model name and the server logs, then try again.' };
}

/** The fetch failure inside the SDK's "Connection error." (whose cause chain holds ECONNREFUSED and the like). */
function unwrap(error: unknown): unknown {
  return error instanceof OpenAI.APIConnectionError && error.cause !== undefined ? error.cause : error;
}
