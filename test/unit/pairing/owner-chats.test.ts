import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, test } from 'node:test';
import type { AllowList } from '../../../src/core/authorize.js';
import { OwnerChats } from '../../../src/gateway/owner/chats.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import type { Store } from '../../../src/store/types.js';
import { FakeClock } from '../../helpers/fake-clock.js';

describe('OwnerChats', () => {
  let store: Store;
  let clock: FakeClock;
  const allow = new Map<string, AllowList>([['telegram', ['1001']], ['slack', ['@boss']], ['open', 'all']]);
  const owners = (): OwnerChats => new OwnerChats({ store, clock, allowOf: (platform) => allow.get(platform) });
  beforeEach(() => {
    clock = new FakeClock();
    store = openStore({ path: ':memory:', clock });
  });
  afterEach(() => store.close());

  test('the DM an allowlisted person last wrote from, remembered in the store across restarts', () => {
    const first = owners();
    assert.equal(first.find({ platform: 'telegram' }), undefined);
    first.seen({ platform: 'telegram', chat: { id: 'group-1', kind: 'group' }, senderId: '1001' });
    assert.equal(first.find({ platform: 'telegram' }), undefined, 'a group is not the owner\'s chat');
    first.seen({ platform: 'telegram', chat: { id: '1001', kind: 'dm' }, senderId: '1001' });
    assert.deepEqual(owners().find({ platform: 'telegram' }), { platform: 'telegram', chat: { id: '1001', kind: 'dm' } });
  });

  test('another platform\'s owner chat (most recent first) when the stranger\'s platform has none; never an allow-all platform', async () => {
    const chats = owners();
    chats.seen({ platform: 'open', chat: { id: 'x', kind: 'dm' }, senderId: 'anyone' });
    assert.equal(chats.find({ platform: 'sms' }), undefined);
    chats.seen({ platform: 'telegram', chat: { id: '1001', kind: 'dm' }, senderId: '1001' });
    await clock.advance(1000);
    chats.seen({ platform: 'slack', chat: { id: 'D1', kind: 'dm' }, senderId: 'U9', username: 'boss' });
    assert.deepEqual(chats.find({ platform: 'sms' }), { platform: 'slack', chat: { id: 'D1', kind: 'dm' } });
    assert.deepEqual(chats.find({ platform: 'telegram' }), { platform: 'telegram', chat: { id: '1001', kind: 'dm' } });
  });

  test('a person taken off the allowlist (or a platform that stopped) is no longer told', () => {
    const chats = owners();
    chats.seen({ platform: 'telegram', chat: { id: '1001', kind: 'dm' }, senderId: '1001' });
    allow.set('telegram', ['2002']);
    try {
      assert.equal(chats.find({ platform: 'telegram' }), undefined);
      allow.delete('telegram');
      assert.equal(chats.find({ platform: 'telegram' }), undefined);
    } finally {
      allow.set('telegram', ['1001']);
    }
  });

  test('a write the disk refused is tried again with the next message, not taken as done for an hour', () => {
    const chats = owners();
    const setCursor = store.setCursor.bind(store);
    store.setCursor = () => {
      throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    };
    assert.throws(() => chats.seen({ platform: 'telegram', chat: { id: '1001', kind: 'dm' }, senderId: '1001' }), /disk is full/);
    store.setCursor = setCursor;
    chats.seen({ platform: 'telegram', chat: { id: '1001', kind: 'dm' }, senderId: '1001' });
    assert.deepEqual(owners().find({ platform: 'telegram' }), { platform: 'telegram', chat: { id: '1001', kind: 'dm' } }, 'stored once the disk took it');
  });

  test('a damaged stored value is ignored, not a crash', () => {
    store.setCursor({ name: 'pairing:owner-chats', value: '{not json' });
    assert.equal(owners().find({ platform: 'telegram' }), undefined);
    store.setCursor({ name: 'pairing:owner-chats', value: '{"telegram":{"chatId":5}}' });
    assert.equal(owners().find({ platform: 'telegram' }), undefined);
  });
});
