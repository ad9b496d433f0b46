import { describeNetworkError, hostOf } from '../kit/net-error.js';
import { scalarText } from '../../src/util/error-text.js';
import type { CredentialCheck, CredentialCheckResult } from '../../src/core/platform-descriptor.js';
import type { SlackConfig } from './config-schema.js';

/** Calls one Slack Web API method with a token; the parsed answer ({ ok, error, ... }) or the HTTP status. */
async function call(params: { apiUrl: string; method: string; token: string; signal: AbortSignal }): Promise<Record<string, unknown> | number> {
  const base = params.apiUrl.endsWith('/') ? params.apiUrl : `${params.apiUrl}/`;
  const response = await fetch(`${base}${params.method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${params.token}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: '',
    signal: params.signal,
  });
  if (!response.ok) return response.status;
  const body: unknown = await response.json();
  return body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : response.status;
}

/** What a failed answer means. */
function refused(params: { what: string; key: string; answer: Record<string, unknown> | number }): CredentialCheckResult {
  const { answer, key } = params;
  const reason = typeof answer === 'number' ? `HTTP ${answer}` : scalarText({ value: answer['error'], fallback: 'unknown error' });
  const auth = ['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired', 'not_allowed_token_type'].includes(reason);
  return {
    ok: false,
    detail: `Slack rejected the ${params.what} (${reason})`,
    hint: auth ? `Copy the ${params.what} again from your app's settings at api.slack.com/apps and update platforms.slack.${key}.` : 'Try again later; see https://slack-status.com.',
  };
}

/**
 * `hermes doctor`: auth.test with platforms.slack.bot_token, and in socket mode apps.connections.open with the
 * app token, against platforms.slack.api_url (as the adapter does).
 */
export const slackCredentialCheck: CredentialCheck<SlackConfig> = async ({ config, signal }) => {
  const slack = config;
  if (slack.bot_token === undefined) return { ok: false, detail: 'platforms.slack.bot_token is not set', hint: 'Set it to the bot token (xoxb-...) from your app settings.' };
  try {
    const auth = await call({ apiUrl: slack.api_url, method: 'auth.test', token: slack.bot_token, signal });
    if (typeof auth === 'number' || auth['ok'] !== true) return refused({ what: 'bot token', key: 'bot_token', answer: auth });
    const who = `bot ${scalarText({ value: auth['user'] ?? auth['user_id'], fallback: '?' })} in ${scalarText({ value: auth['team'] ?? auth['team_id'], fallback: '?' })}`;
    if (slack.mode !== 'socket' || slack.app_token === undefined) return { ok: true, detail: who };
    const socket = await call({ apiUrl: slack.api_url, method: 'apps.connections.open', token: slack.app_token, signal });
    if (typeof socket === 'number' || socket['ok'] !== true) return refused({ what: 'app-level token', key: 'app_token', answer: socket });
    return { ok: true, detail: `${who}; the app token opens Socket Mode` };
  } catch (error) {
    return { ok: false, detail: describeNetworkError({ error, signal, what: hostOf(slack.api_url) }), hint: `Check the network, or platforms.slack.api_url (${slack.api_url}).` };
  }
};
