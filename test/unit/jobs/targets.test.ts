import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { describeTarget, parseDeliver, targetKey } from '../../../src/jobs/targets.js';

describe('parseDeliver', () => {
  test('empty is origin; every form reads, duplicates dropped', () => {
    assert.deepEqual(parseDeliver({ text: undefined }), { ok: true, specs: [{ kind: 'origin' }] });
    assert.deepEqual(parseDeliver({ text: ' ' }), { ok: true, specs: [{ kind: 'origin' }] });
    assert.deepEqual(parseDeliver({ text: 'origin, home, Home:Slack, telegram:-100123, slack:C1:1700.0001, origin' }), {
      ok: true,
      specs: [
        { kind: 'origin' },
        { kind: 'home' },
        { kind: 'home', platform: 'slack' },
        { kind: 'chat', platform: 'telegram', chatId: '-100123' },
        { kind: 'chat', platform: 'slack', chatId: 'C1', threadId: '1700.0001' },
      ],
    });
  });

  test('anything else is refused with the accepted forms', () => {
    for (const text of ['somewhere', 'telegram:', 'a:b:c:d', 'home:slack:1', '1:2', 'slack::1']) {
      const result = parseDeliver({ text });
      assert.equal(result.ok, false, text);
      if (!result.ok) assert.match(result.error, /is not a delivery target; accepted: "origin"/);
    }
  });
});

describe('targetKey and describeTarget', () => {
  test('keys name the platform, chat and thread; origin and home read as such', () => {
    const origin = { kind: 'chat', platform: 'telegram', chat: { id: '42', kind: 'dm' }, origin: true } as const;
    const thread = { kind: 'chat', platform: 'slack', chat: { id: 'C1', kind: 'channel', threadId: '1.2' }, origin: false } as const;
    assert.equal(targetKey({ target: origin }), 'telegram:42');
    assert.equal(targetKey({ target: thread }), 'slack:C1:1.2');
    assert.equal(targetKey({ target: { kind: 'home', platform: 'slack' } }), 'home:slack');
    assert.equal(describeTarget({ target: origin }), 'origin (telegram:42)');
    assert.equal(describeTarget({ target: thread }), 'slack:C1:1.2');
    assert.equal(describeTarget({ target: { kind: 'home', platform: 'slack' } }), 'home channel of slack');
  });
});
