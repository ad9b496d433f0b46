import { describeNetworkError, hostOf } from '../kit/net-error.js';
import type { CredentialCheck } from '../../src/core/platform-descriptor.js';
import type { SmsConfig } from './config-schema.js';
import { createTwilioClient, isAuthFailure, restFailure } from './rest-client.js';
import { untilAborted } from './until-aborted.js';

/**
 * `hermes doctor`: fetches the account with platforms.sms.account_sid and auth_token through the Twilio SDK,
 * against platforms.sms.api_base (as the adapter does at start). Never throws.
 */
export const smsCredentialCheck: CredentialCheck<SmsConfig> = async ({ config, signal }) => {
  const sms = config;
  if (sms.account_sid === undefined || !sms.account_sid.startsWith('AC')) {
    return { ok: false, detail: 'platforms.sms.account_sid is not set (AC...)', hint: 'Copy the Account SID from the Twilio console.' };
  }
  if (sms.auth_token === undefined) return { ok: false, detail: 'platforms.sms.auth_token is not set', hint: 'Copy the Auth Token from the Twilio console into the profile .env.' };
  try {
    const client = createTwilioClient({ accountSid: sms.account_sid, authToken: sms.auth_token, apiBase: sms.api_base, timeoutMs: 15_000 });
    const account = await untilAborted({ work: client.api.accounts(sms.account_sid).fetch(), signal });
    const sender = sms.from_number ?? sms.messaging_service_sid ?? 'no sender set';
    return { ok: true, detail: `account "${account.friendlyName}" (${account.status}), sending from ${sender}` };
  } catch (error) {
    const failure = restFailure({ error });
    if (isAuthFailure({ error })) {
      return { ok: false, detail: `Twilio rejected the account SID or auth token (HTTP ${failure?.status ?? '?'})`, hint: 'Check platforms.sms.account_sid and auth_token against the Twilio console.' };
    }
    if (failure !== undefined) return { ok: false, detail: `Twilio answered HTTP ${failure.status}: ${failure.message}`, hint: 'Try again later; see https://status.twilio.com.' };
    return { ok: false, detail: describeNetworkError({ error, signal, what: hostOf(sms.api_base) }), hint: `Check the network, or platforms.sms.api_base (${sms.api_base}).` };
  }
};
