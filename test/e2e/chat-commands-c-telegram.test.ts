import assert from 'node:assert/strict';
import { test } from 'node:test';
import { roles } from '../helpers/request-roles.js';
import { startTelegramChat } from '../helpers/telegram-chat.js';

test('telegram: /undo drops the last exchange from the next request; with nothing left it says so', { timeout: 30_000 }, async () => {
  const t = await startTelegramChat();
  try {
    assert.match(await t.say('/undo'), /^Nothing to undo/);
    t.h.fake.enqueue({ text: 'answer one' }, { text: 'answer two' }, { text: 'answer three' });
    assert.equal(await t.say('first question'), 'answer one');
    assert.equal(await t.say('second question'), 'answer two');
    assert.match(await t.say('/undo'), /^Removed your message “second question”/);
    assert.equal(t.h.fake.requests.length, 2, '/undo made no model request');
    assert.equal(await t.say('third question'), 'answer three');
    assert.deepEqual(roles(t.h.fake.requests.at(-1)), ['user:first question', 'assistant:answer one', 'user:third question']);
  } finally {
    await t.stop();
  }
});

test('telegram: /title sets and shows the title of the conversation (stored)', { timeout: 30_000 }, async () => {
  const t = await startTelegramChat();
  try {
    assert.match(await t.say('/title'), /no title yet/);
    assert.equal(await t.say('/title@hermes_bot Trip   planning'), 'Title set: Trip planning');
    assert.equal(await t.say('/title'), 'Title: Trip planning');
    const store = t.h.readStore();
    try {
      assert.equal(store.listSessions({ limit: 1 })[0]?.title, 'Trip planning');
    } finally {
      store.close();
    }
  } finally {
    await t.stop();
  }
});

test("telegram: /sessions lists the chat's conversations; /resume 2 makes the next request's history the old one's", { timeout: 30_000 }, async () => {
  const t = await startTelegramChat();
  try {
    t.h.fake.setResponder(() => ({ text: 'noted' }));
    assert.equal(await t.say('/sessions'), 'No conversations in this chat yet.');
    await t.say('remember the blue door');
    await t.say('/new');
    await t.say('something else entirely');
    const list = await t.say('/sessions');
    assert.match(list, /^1\. [0-9a-f]{8} · something else entirely · .* · 2 messages ← current$/m, list);
    assert.match(list, /^2\. [0-9a-f]{8} · remember the blue door · .* · 2 messages$/m, list);
    assert.match(await t.say('/resume 7'), /^Nothing to resume: there is no conversation 7 \(1 to 2\)/);
    assert.match(await t.say('/resume 2'), /^Resumed conversation [0-9a-f]{8} .*\(2 messages\)/);
    await t.say('which door?');
    assert.deepEqual(roles(t.h.fake.requests.at(-1)), ['user:remember the blue door', 'assistant:noted', 'user:which door?']);
  } finally {
    await t.stop();
  }
});
