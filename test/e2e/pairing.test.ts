import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cli } from '../helpers/cli.js';
import { startHarness } from '../helpers/harness.js';

test('an unknown DM sender gets a pairing code once; after `hermes pairing approve` they are answered', async () => {
  const h = await startHarness({ allow: ['user-1'], unauthorized: 'pair' });
  try {
    await h.adapter.inject({ text: 'hi, who are you?', senderId: 'stranger', chatId: 'dm-stranger' });
    await h.adapter.inject({ text: 'hello??', senderId: 'stranger', chatId: 'dm-stranger' });
    await h.runner.waitIdle();
    const replies = h.adapter.shown({ chatId: 'dm-stranger' });
    assert.equal(replies.length, 1, 'one code, not one reply per message');
    const code = /\b([A-HJ-NP-Z2-9]{8})\b/.exec(replies[0]?.text ?? '')?.[1];
    assert.ok(code, `no code in ${replies[0]?.text}`);
    assert.match(replies[0]?.text ?? '', /hermes -p test pairing approve test/);
    assert.equal(h.fake.requests.length, 0, 'an unknown sender never reaches the model');
    const store = h.readStore();
    try {
      assert.equal(store.search({ query: 'hello', limit: 5 }).length, 0, 'nor the session store');
    } finally {
      store.close();
    }
    // A group stranger gets nothing at all.
    await h.adapter.inject({ text: 'hey bot', senderId: 'other', chatId: 'group-1', kind: 'group' });
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown({ chatId: 'group-1' }).length, 0);

    const approved = await cli({ argv: ['-p', 'test', 'pairing', 'approve', 'test', code.toLowerCase()], env: { HERMES_HOME: h.profile.hermesHome, HOME: h.profile.hermesHome } });
    assert.equal(approved.code, 0, approved.stderr);
    h.fake.enqueue({ text: 'Nice to meet you.' });
    await h.adapter.inject({ text: 'am I in?', senderId: 'stranger', chatId: 'dm-stranger' });
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown({ chatId: 'dm-stranger' }).at(-1)?.text, 'Nice to meet you.');
  } finally {
    await h.stop();
  }
});

test('with unauthorized: ignore an unknown sender gets nothing', async () => {
  const h = await startHarness({ allow: ['user-1'], unauthorized: 'ignore' });
  try {
    await h.adapter.inject({ text: 'hi', senderId: 'stranger', chatId: 'dm-stranger' });
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown({ chatId: 'dm-stranger' }).length, 0);
  } finally {
    await h.stop();
  }
});
