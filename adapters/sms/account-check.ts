import http from 'node:http';
import https from 'node:https';
import { AdapterFatalError } from '../../src/core/errors.js';

/** The most of an error body read (Twilio's JSON error is a few hundred bytes). */
const MAX_ERROR_BODY = 64 * 1024;

/**
 * `uri` (an api.twilio.com address, as the SDK builds them) with its origin replaced by `base` (and `base`'s path put
 * in front of its path): both the SDK's HTTP client and the account check send to the configured `api_base`. Here,
 * not in rest-client.ts, so the check does not load the SDK.
 */
export function rebase(params: { uri: string; base: URL }): string {
  const target = new URL(params.uri);
  const prefix = params.base.pathname.replace(/\/+$/, '');
  return `${params.base.origin}${prefix}${target.pathname}${target.search}`;
}

/** What the account check was told: the HTTP status and, for a JSON error body, Twilio's error code. */
interface AccountAnswer {
  readonly status: number;
  readonly code: number | undefined;
}

/**
 * Checks the account SID and auth token the way the SDK's `accounts(sid).fetch()` does (GET
 * /2010-04-01/Accounts/{sid}.json with HTTP basic auth, at `apiBase`), without loading the SDK: twilio and its
 * HTTP stack are ~22 MB of RSS, and the adapter needs them only when it sends. Bad credentials (401/403, error
 * 20003) are an AdapterFatalError with a hint; any other failure an Error the supervisor retries.
 */
export async function checkTwilioAccount(params: { apiBase: string; accountSid: string; authToken: string; signal: AbortSignal; timeoutMs?: number }): Promise<void> {
  const url = new URL(rebase({ uri: `https://api.twilio.com/2010-04-01/Accounts/${encodeURIComponent(params.accountSid)}.json`, base: new URL(params.apiBase) }));
  const answer = await getAccount({ url, authorization: `Basic ${Buffer.from(`${params.accountSid}:${params.authToken}`).toString('base64')}`, signal: params.signal, timeoutMs: params.timeoutMs ?? 30_000 });
  if (answer.status >= 200 && answer.status < 300) return;
  const said = `HTTP ${answer.status}${answer.code !== undefined ? `, error ${answer.code}` : ''}`;
  if (answer.status === 401 || answer.status === 403 || answer.code === 20003) {
    throw new AdapterFatalError({
      message: `Twilio rejected the account SID or auth token (${said})`,
      hint: 'Check platforms.sms.account_sid (AC...) and platforms.sms.auth_token against the Twilio console, then restart the gateway.',
    });
  }
  throw new Error(`the Twilio account check failed (${said}) at ${url.origin}`);
}

/** One GET with a timeout and the caller's signal; the body is read only for Twilio's error code. */
function getAccount(params: { url: URL; authorization: string; signal: AbortSignal; timeoutMs: number }): Promise<AccountAnswer> {
  const { url } = params;
  const client = url.protocol === 'http:' ? http : https;
  return new Promise<AccountAnswer>((resolve, reject) => {
    const request = client.get(url, { headers: { authorization: params.authorization, accept: 'application/json' }, signal: params.signal, timeout: params.timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= MAX_ERROR_BODY) chunks.push(chunk);
      });
      response.on('error', reject);
      response.on('end', () => {
        const status = response.statusCode ?? 0;
        resolve({ status, code: errorCodeOf({ body: Buffer.concat(chunks).toString('utf8') }) });
      });
    });
    request.on('timeout', () => request.destroy(new Error(`the Twilio account check timed out after ${params.timeoutMs} ms`)));
    request.on('error', reject);
  });
}

/** Twilio's numeric error code from a JSON error body, when there is one. */
function errorCodeOf(params: { body: string }): number | undefined {
  try {
    const parsed: unknown = JSON.parse(params.body);
    if (typeof parsed === 'object' && parsed !== null && 'code' in parsed && typeof parsed.code === 'number') return parsed.code;
  } catch {
    // Not JSON: the status decides.
  }
  return undefined;
}
