import assert from 'node:assert/strict';
import http from 'node:http';
import { test } from 'node:test';
import { smsCredentialCheck } from '../../../adapters/sms/check.js';
import type { AppConfig } from '../../../src/app/config-schema.js';
import { appConfigSchema } from '../../../src/app/config-schema.js';
import { closeServer, listenLoopback } from '../../fakes/http-kit.js';
import { FakeTwilio } from '../../fakes/twilio/index.js';
import { smsSetup } from '../../helpers/sms.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

/** A whole config with `platforms.sms` set (the check only reads that block). */
function config(sms: Record<string, unknown>): AppConfig {
  const parsed = configSchema.parse({ platforms: { sms: { account_sid: smsSetup.accountSid, auth_token: smsSetup.authToken, from_number: smsSetup.botNumber, ...sms } } });
  return { ...parsed, tools: { ...parsed.tools, workspace: '/tmp/workspace' } };
}

test('smsCredentialCheck: the account is fetched with the SID and token; a wrong token is a clear failure', async () => {
  const fake = new FakeTwilio({ accountSid: smsSetup.accountSid, authToken: smsSetup.authToken });
  await fake.start();
  try {
    const ok = await smsCredentialCheck({ config: config({ api_base: fake.apiBase }).platforms.sms, signal: new AbortController().signal });
    assert.equal(ok.ok, true, ok.detail);
    assert.match(ok.detail, /Fake account/);
    const wrong = await smsCredentialCheck({ config: config({ api_base: fake.apiBase, auth_token: 'not-the-token' }).platforms.sms, signal: new AbortController().signal });
    assert.equal(wrong.ok, false);
    assert.match(wrong.detail, /rejected the account SID or auth token \(HTTP 401\)/);
    assert.ok(!JSON.stringify(wrong).includes('not-the-token'));
    const missing = await smsCredentialCheck({ config: config({ auth_token: undefined }).platforms.sms, signal: new AbortController().signal });
    assert.deepEqual([missing.ok, missing.detail], [false, 'platforms.sms.auth_token is not set']);
  } finally {
    await fake.close();
  }
});

test('smsCredentialCheck honours its signal and never throws when the API does not answer', async () => {
  const silent = http.createServer(() => undefined);
  const port = await listenLoopback({ server: silent });
  try {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(new Error('check timed out')), 200);
    const result = await smsCredentialCheck({ config: config({ api_base: `http://127.0.0.1:${port}` }).platforms.sms, signal: controller.signal });
    assert.equal(result.ok, false);
    assert.ok(Date.now() - started < 2000, 'returned soon after the abort');
  } finally {
    await closeServer({ server: silent });
  }
});
