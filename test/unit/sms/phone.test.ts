import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { maskPhone, normalizePhone } from '../../../src/util/phone.js';
import { smsSchema } from '../../../adapters/sms/config-schema.js';

describe('normalizePhone', () => {
  test('strips the separators people type and keeps E.164', () => {
    assert.equal(normalizePhone({ value: '+1 (555) 123-4567' }), '+15551234567');
    assert.equal(normalizePhone({ value: '+44 20.7946.0958' }), '+442079460958');
    assert.equal(normalizePhone({ value: '+15551234567' }), '+15551234567');
  });

  test('refuses numbers without a leading +, with letters, or of impossible length', () => {
    assert.equal(normalizePhone({ value: '15551234567' }), undefined);
    assert.equal(normalizePhone({ value: '+1555CALLME' }), undefined);
    assert.equal(normalizePhone({ value: '+12345' }), undefined);
    assert.equal(normalizePhone({ value: '+1234567890123456' }), undefined);
    assert.equal(normalizePhone({ value: '+05551234567' }), undefined);
  });
});

describe('maskPhone', () => {
  test('keeps country code, area and last four digits only', () => {
    assert.equal(maskPhone({ phone: '+15551234567' }), '+1555***4567');
    assert.equal(maskPhone({ phone: 'whatsapp:+15551234567' }), 'whatsapp:+1555***4567');
    assert.equal(maskPhone({ phone: '+442079460958' }), '+4420***0958');
  });

  test('short codes and odd values are never shown whole', () => {
    assert.equal(maskPhone({ phone: '12345' }), '***45');
    assert.equal(maskPhone({ phone: 'not a number' }), '***');
    assert.equal(maskPhone({ phone: '' }), '');
    for (const phone of ['+15551234567', '12345', '+442079460958']) assert.ok(!maskPhone({ phone }).includes(phone));
  });
});

describe('platforms.sms phone numbers', () => {
  test('allowed_users and from_number are normalized on load', () => {
    const sms = smsSchema.parse({ allowed_users: ['+1 555-123-4567', '+44 20 7946 0958'], from_number: '+1 (555) 999-0000' });
    assert.deepEqual(sms.allowed_users, ['+15551234567', '+442079460958']);
    assert.equal(sms.from_number, '+15559990000');
  });

  test('an unquoted number (read by YAML as a number) or a number without + is refused with a hint', () => {
    const unquoted = smsSchema.safeParse({ allowed_users: [15551234567] });
    assert.equal(unquoted.success, false);
    assert.match(unquoted.error?.issues[0]?.message ?? '', /quote phone numbers \("\+15551234567"\)/);
    const bare = smsSchema.safeParse({ allowed_users: ['5551234567'] });
    assert.match(bare.error?.issues[0]?.message ?? '', /E\.164/);
  });
});
