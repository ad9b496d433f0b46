import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { smsSchema } from '../../../adapters/sms/config-schema.js';
import { collectSecrets } from '../../../src/config/secrets.js';
import { isSecretKey } from '../../../src/log/secret-keys.js';

const complete = {
  enabled: true,
  account_sid: 'AC0123456789abcdef0123456789abcdef',
  auth_token: 'secret-token',
  from_number: '+15559990000',
  webhook_url: 'https://bot.example.com/sms/twilio',
};

/** The key paths a block is refused for. */
function refusedKeys(block: Record<string, unknown>): string[] {
  const result = smsSchema.safeParse(block);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
}

describe('platforms.sms', () => {
  test('defaults: disabled, webhook at /sms/twilio, real Twilio API, 5 MB media, links valid 1 h, pairing', () => {
    const sms = smsSchema.parse({});
    assert.equal(sms.enabled, false);
    assert.equal(sms.webhook_path, '/sms/twilio');
    assert.equal(sms.api_base, 'https://api.twilio.com');
    assert.equal(sms.max_media_size, 5 * 1024 * 1024);
    assert.equal(sms.media_url_ttl, 3_600_000);
    assert.equal(sms.unauthorized, 'pair');
  });

  test('credentials alone never enable it, and a disabled block needs nothing', () => {
    assert.equal(smsSchema.parse({ account_sid: 'AC1', auth_token: 'x' }).enabled, false);
    assert.deepEqual(refusedKeys({ enabled: false }), []);
  });

  test('when enabled: SID, token, a sender and the public webhook URL are required', () => {
    assert.deepEqual(refusedKeys(complete), []);
    assert.deepEqual(refusedKeys({ enabled: true }).sort(), ['account_sid', 'auth_token', 'from_number', 'webhook_url']);
    const messagingService = { ...complete, from_number: undefined, messaging_service_sid: 'MG0123456789abcdef0123456789abcdef' };
    assert.deepEqual(refusedKeys(messagingService), []);
    const noUrl = smsSchema.safeParse({ ...complete, webhook_url: undefined });
    assert.match(noUrl.error?.issues[0]?.message ?? '', /signs each request over that URL/);
  });

  test('malformed values are refused: SID prefixes, webhook URL, short link lifetime', () => {
    assert.deepEqual(refusedKeys({ ...complete, account_sid: 'SK123' }), ['account_sid']);
    assert.deepEqual(refusedKeys({ ...complete, messaging_service_sid: 'PN123' }), ['messaging_service_sid']);
    assert.deepEqual(refusedKeys({ ...complete, webhook_url: 'bot.example.com/sms' }), ['webhook_url']);
    assert.deepEqual(refusedKeys({ ...complete, media_url_ttl: '5s' }), ['media_url_ttl']);
    assert.deepEqual(refusedKeys({ ...complete, webhook_path: 'sms' }), ['webhook_path']);
  });

  test('the auth token is treated as a secret: redacted by key in logs and scrubbed by value everywhere', () => {
    assert.ok(collectSecrets({ config: { platforms: { sms: complete } }, envFileValues: {} }).includes('secret-token'));
    assert.ok(isSecretKey('auth_token'));
  });
});
