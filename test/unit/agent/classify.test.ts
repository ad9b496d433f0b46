import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI from 'openai';
import { classifyError, retryAfterMs } from '../../../src/agent/classify.js';
import { redactSecrets } from '../../../src/agent/errors.js';
import { closedPort } from '../../helpers/ports.js';

const NOW = 1_700_000_000_000;
/** The facts every classification gets in these tests. */
const FACTS = { model: 'gpt-test', baseURL: 'https://api.example.com/v1', now: NOW };

function apiError(status: number, body: object, headers: Record<string, string> = {}): InstanceType<typeof OpenAI.APIError> {
  return OpenAI.APIError.generate(status, body, undefined, new Headers(headers));
}

describe('classifyError', () => {
  const base = { model: 'gpt-test', baseURL: 'https://user:pw@api.example.com/v1?key=abc', now: NOW };

  test('401 and 403 are not retryable and point at the API key settings', () => {
    for (const status of [401, 403]) {
      const c = classifyError({ ...base, error: apiError(status, { error: { message: 'bad key sk-abcdefghijkl' } }), apiKey: 'sk-abcdefghijkl' });
      assert.equal(c.reason, 'auth');
      assert.equal(c.retryable, false);
      assert.match(c.userMessage, /model\.api_key.*model\.api_keys.*OPENAI_API_KEY/);
      assert.ok(!c.userMessage.includes('abcdefghijkl'), c.userMessage);
      assert.ok(!c.userMessage.includes('pw@'), 'credentials of the base URL leaked');
      assert.ok(!c.userMessage.includes('key=abc'), 'query of the base URL leaked');
    }
  });

  test('404 blames the model name or base_url', () => {
    const c = classifyError({ ...base, error: apiError(404, { error: { message: 'no such model' } }) });
    assert.equal(c.reason, 'model_not_found');
    assert.equal(c.retryable, false);
    assert.match(c.userMessage, /"gpt-test".*https:\/\/api\.example\.com\/v1.*model name or model\.base_url is wrong/);
  });

  test('429, 5xx, 408 and connection failures are retryable; 429 carries Retry-After', () => {
    const limited = classifyError({ ...base, error: apiError(429, { error: { message: 'slow' } }, { 'retry-after': '3' }) });
    assert.deepEqual([limited.reason, limited.retryable, limited.retryAfterMs], ['rate_limit', true, 3_000]);
    for (const status of [408, 500, 502, 503]) {
      assert.equal(classifyError({ ...base, error: apiError(status, {}) }).retryable, true, `status ${status}`);
    }
    const conn = classifyError({ ...base, error: new OpenAI.APIConnectionError({ cause: new Error('ECONNREFUSED') }) });
    assert.deepEqual([conn.reason, conn.retryable], ['connection', true]);
    assert.match(conn.userMessage, /Could not reach .*ECONNREFUSED.*model\.base_url/);
    const timeout = classifyError({ ...base, error: new OpenAI.APIConnectionTimeoutError() });
    assert.deepEqual([timeout.reason, timeout.retryable], ['timeout', true]);
    const broken = classifyError({ ...base, error: new TypeError('terminated') });
    assert.deepEqual([broken.reason, broken.retryable], ['connection', true]);
  });

  test('quota exhaustion and bad requests are not retried; context overflow suggests /new', () => {
    const quota = classifyError({ ...base, error: apiError(429, { error: { message: 'quota', code: 'insufficient_quota' } }) });
    assert.deepEqual([quota.reason, quota.retryable], ['out_of_credit', false]);
    const ctx = classifyError({
      ...base,
      error: apiError(400, { error: { message: "This model's maximum context length is 8192 tokens", code: 'context_length_exceeded' } }),
    });
    assert.deepEqual([ctx.reason, ctx.retryable], ['context_overflow', false]);
    assert.match(ctx.userMessage, /\/new/);
    const bad = classifyError({ ...base, error: apiError(400, { error: { message: 'temperature too high' } }) });
    assert.deepEqual([bad.reason, bad.retryable], ['bad_request', false]);
    assert.match(bad.userMessage, /temperature too high/);
  });

  test('aborts and unknown errors are not retryable', () => {
    assert.equal(classifyError({ ...base, error: new OpenAI.APIUserAbortError() }).reason, 'aborted');
    const unknown = classifyError({ ...base, error: new RangeError('boom'), apiKey: 'sk-zzzzzzzzzz' });
    assert.deepEqual([unknown.reason, unknown.retryable], ['unknown', false]);
    assert.match(unknown.userMessage, /boom/);
  });
});

describe('retryAfterMs and redactSecrets', () => {
  test('retry-after-ms wins, then Retry-After seconds, then an HTTP date', () => {
    assert.equal(retryAfterMs({ headers: new Headers({ 'retry-after-ms': '250', 'retry-after': '9' }), now: NOW }), 250);
    assert.equal(retryAfterMs({ headers: new Headers({ 'retry-after': '1.5' }), now: NOW }), 1_500);
    const date = new Date(NOW + 4_000).toUTCString();
    assert.equal(retryAfterMs({ headers: new Headers({ 'retry-after': date }), now: NOW }), 4_000);
    assert.equal(retryAfterMs({ headers: new Headers({ 'retry-after': 'soon' }), now: NOW }), undefined);
    assert.equal(retryAfterMs({ headers: undefined, now: NOW }), undefined);
  });

  test('redactSecrets removes the given key, sk- tokens and bearer tokens', () => {
    const text = redactSecrets({ text: 'key gsk_live_123456 and sk-proj-abcdef123 with Bearer abc.def', secrets: ['gsk_live_123456'] });
    assert.equal(text, 'key *** and sk-*** with Bearer ***');
  });

  test('every reason carries its four flags (the loop reads only these)', () => {
    const flagsOf = (error: unknown): [string, boolean, boolean, boolean, boolean] => {
      const c = classifyError({ ...FACTS, error });
      return [c.reason, c.retryable, c.shouldCompress, c.shouldRotateCredential, c.shouldFallback];
    };
    const cases: [unknown, [string, boolean, boolean, boolean, boolean]][] = [
      [apiError(401, {}), ['auth', false, false, true, true]],
      [apiError(403, {}), ['auth', false, false, true, true]],
      [apiError(402, { error: { message: 'Payment required' } }), ['out_of_credit', false, false, true, true]],
      [apiError(429, { error: { message: 'You exceeded your current quota', code: 'insufficient_quota' } }), ['out_of_credit', false, false, true, true]],
      [apiError(429, { error: { message: 'Rate limit reached' } }), ['rate_limit', true, false, true, true]],
      [apiError(400, { error: { message: 'too long', code: 'context_length_exceeded' } }), ['context_overflow', false, true, false, false]],
      [apiError(400, { error: { message: 'prompt is too long: 210000 tokens > 200000 maximum' } }), ['context_overflow', false, true, false, false]],
      [apiError(404, { error: { message: 'The model does not exist' } }), ['model_not_found', false, false, false, true]],
      [apiError(400, { error: { message: 'temperature too high' } }), ['bad_request', false, false, false, false]],
      [apiError(500, {}), ['server_error', true, false, false, true]],
      [apiError(502, {}), ['server_error', true, false, false, true]],
      [apiError(503, {}), ['server_error', true, false, false, true]],
      [apiError(503, { error: { message: 'upstream overloaded' } }), ['overloaded', true, false, false, true]],
      [apiError(529, { error: { message: 'Overloaded' } }), ['overloaded', true, false, false, true]],
      [new OpenAI.APIConnectionTimeoutError(), ['timeout', true, false, false, true]],
      [new OpenAI.APIConnectionError({ cause: new Error('ECONNREFUSED') }), ['connection', true, false, false, true]],
      [apiError(400, { error: { message: 'rejected by the content management policy', code: 'content_filter' } }), ['content_filter', false, false, false, false]],
      [new OpenAI.APIUserAbortError(), ['aborted', false, false, false, false]],
      [new RangeError('boom'), ['unknown', false, false, false, false]],
    ];
    for (const [error, expected] of cases) assert.deepEqual(flagsOf(error), expected, expected[0]);
  });

  test('429 and 402 differ: a rate limit backs off with Retry-After, out of credit asks for billing or another key', () => {
    const limited = classifyError({ ...FACTS, error: apiError(429, { error: { message: 'slow down' } }, { 'retry-after': '7' }) });
    assert.equal(limited.retryAfterMs, 7_000);
    assert.match(limited.userMessage, /rate limiting.*Wait a minute/);
    const broke = classifyError({ ...FACTS, error: apiError(402, { error: { message: 'no credit left' } }) });
    assert.equal(broke.retryAfterMs, undefined);
    assert.match(broke.userMessage, /out of credit \(HTTP 402\): no credit left.*billing.*model\.api_keys/);
    const filtered = classifyError({ ...FACTS, error: apiError(400, { error: { message: 'flagged', code: 'content_filter' } }) });
    assert.match(filtered.userMessage, /content filter.*Rephrase/);
  });
});

describe('classifyError: the shapes real providers send', () => {
  const streamError = (body: object): InstanceType<typeof OpenAI.APIError> => new OpenAI.APIError(undefined, body, undefined, new Headers());

  test('an error event inside a 200 stream is classified by the status or type its body names (OpenRouter, Anthropic)', () => {
    assert.equal(classifyError({ ...FACTS, error: streamError({ code: 402, message: 'Insufficient credits' }) }).reason, 'out_of_credit');
    assert.equal(classifyError({ ...FACTS, error: streamError({ code: 429, message: 'Rate limited' }) }).reason, 'rate_limit');
    assert.equal(classifyError({ ...FACTS, error: streamError({ type: 'overloaded_error', message: 'Overloaded' }) }).reason, 'overloaded');
    assert.equal(classifyError({ ...FACTS, error: streamError({ code: 'context_length_exceeded', message: 'too long' }) }).reason, 'context_overflow');
    const plain = classifyError({ ...FACTS, error: streamError({ message: 'Provider disconnected' }) });
    assert.deepEqual([plain.reason, plain.retryable], ['server_error', true]);
  });

  test('Anthropic-style bodies: 529 overloaded, a 400 "credit balance is too low" is out of credit, 413 is an overflow', () => {
    const overloaded = classifyError({ ...FACTS, error: apiError(529, { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }) });
    assert.deepEqual([overloaded.reason, overloaded.retryable, overloaded.shouldFallback], ['overloaded', true, true]);
    const credit = classifyError({
      ...FACTS,
      error: apiError(400, { type: 'error', error: { type: 'invalid_request_error', message: 'Your credit balance is too low to access the Anthropic API.' } }),
    });
    assert.deepEqual([credit.reason, credit.shouldRotateCredential], ['out_of_credit', true]);
    assert.equal(classifyError({ ...FACTS, error: apiError(413, { error: { type: 'request_too_large', message: 'Request exceeds the maximum size' } }) }).shouldCompress, true);
  });

  test('OpenRouter 402 and OpenAI insufficient_quota 429 are out of credit (rotate at once), naming the key masked', () => {
    const key = 'sk-or-v1-0123456789abcdef';
    const openRouter = classifyError({ ...FACTS, apiKey: key, error: apiError(402, { error: { code: 402, message: 'Insufficient credits. Add more using https://openrouter.ai/credits' } }) });
    assert.deepEqual([openRouter.reason, openRouter.retryable, openRouter.shouldRotateCredential], ['out_of_credit', false, true]);
    assert.match(openRouter.userMessage, /API key sk-…cdef is out of credit \(HTTP 402\)/);
    assert.ok(!openRouter.userMessage.includes('0123456789'), openRouter.userMessage);
    const quota = classifyError({ ...FACTS, error: apiError(429, { error: { message: 'You exceeded your current quota', type: 'insufficient_quota', code: 'insufficient_quota' } }) });
    assert.deepEqual([quota.reason, quota.retryable], ['out_of_credit', false]);
    const auth = classifyError({ ...FACTS, apiKey: key, error: apiError(401, { error: { message: 'No auth credentials found', code: 401 } }) });
    assert.match(auth.userMessage, /rejected the API key sk-…cdef \(HTTP 401\)/);
    const keyless = classifyError({ ...FACTS, apiKey: 'not-needed', error: apiError(401, { error: { message: 'Unauthorized' } }) });
    assert.match(keyless.userMessage, /rejected the API key \(HTTP 401\)/, 'the placeholder of a keyless endpoint is not named as a key');
  });

  test('an HTML error page (a proxy 502) is not quoted as HTML; garbage bodies stay one clean line', () => {
    const html = '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>';
    const bad = classifyError({ ...FACTS, error: OpenAI.APIError.generate(502, undefined, html, new Headers()) });
    assert.equal(bad.reason, 'server_error');
    assert.ok(!/[<>]/.test(bad.userMessage), bad.userMessage);
    assert.match(bad.userMessage, /an HTML page titled "502 Bad Gateway"/);
    const garbage = classifyError({ ...FACTS, error: OpenAI.APIError.generate(500, undefined, 'oops\u0000\n\n  \u0007trace', new Headers()) });
    assert.ok(!/[\u0000-\u001f]/.test(garbage.userMessage), garbage.userMessage);
    assert.equal(garbage.reason, 'server_error');
  });

  test('socket errors by code (a stream read that broke throws a bare Error): ECONNRESET/ECONNREFUSED connection, ETIMEDOUT timeout; all retried', () => {
    const withCode = (code: string): Error => Object.assign(new Error(`read ${code}`), { code });
    for (const code of ['ECONNRESET', 'ECONNREFUSED', 'EPIPE']) {
      const c = classifyError({ ...FACTS, error: withCode(code) });
      assert.deepEqual([c.reason, c.retryable, c.shouldFallback], ['connection', true, true], code);
    }
    const timedOut = classifyError({ ...FACTS, error: new Error('fetch failed', { cause: withCode('ETIMEDOUT') }) });
    assert.deepEqual([timedOut.reason, timedOut.retryable], ['timeout', true]);
    const sdkTimeout = classifyError({ ...FACTS, error: new OpenAI.APIConnectionTimeoutError() });
    assert.deepEqual([sdkTimeout.reason, sdkTimeout.retryable], ['timeout', true]);
    const abort = classifyError({ ...FACTS, error: new DOMException('This operation was aborted', 'AbortError') });
    assert.deepEqual([abort.reason, abort.retryable, abort.shouldFallback], ['aborted', false, false]);
  });
});

test('a model server that cannot be reached is named with the cause (refused, host not found), not fetch\'s "fetch failed"', async () => {
  const port = await closedPort();
  for (const [baseURL, cause] of [
    [`http://127.0.0.1:${port}/v1`, `connection refused 127\\.0\\.0\\.1:${port}`],
    // EAI_AGAIN where no resolver answers at all.
    ['http://nosuch.invalid/v1', 'host not found (?:\\(DNS lookup failed\\) )?nosuch\\.invalid'],
  ] as const) {
    const client = new OpenAI({ apiKey: 'sk-test', baseURL, maxRetries: 0 });
    const error = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }).then(() => undefined, (e: unknown) => e);
    const c = classifyError({ ...FACTS, baseURL, error });
    assert.equal(c.reason, 'connection');
    assert.match(c.userMessage, new RegExp(`^Could not reach the model server at .* \\(${cause}\\)\\. Check model\\.base_url`), c.userMessage);
  }
});
