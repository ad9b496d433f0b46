import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { openStore } from '../../../src/store/sqlite-store.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeEvent } from './fixtures.js';

describe('store messages', () => {
  test('history round-trips every field, tool calls included, in order', async () => {
    const clock = new FakeClock(1_000);
    const store = openStore({ path: ':memory:', clock });
    const session = store.createSession({ key: 'k' });
    const inboxId = store.recordInbound({ event: makeEvent(), sessionKey: 'k' }).row.id;

    const user = store.appendMessage({ sessionId: session.id, inboxId, role: 'user', content: 'weather in Oslo?' });
    await clock.advance(10);
    const toolCalls = [
      { id: 'call_1', name: 'web_search', arguments: '{"q":"Oslo weather","n":3}' },
      { id: 'call_2', name: 'read_file', arguments: '{}' },
    ];
    const assistant = store.appendMessage({ sessionId: session.id, inboxId, role: 'assistant', content: '', toolCalls });
    const tool = store.appendMessage({
      sessionId: session.id,
      inboxId,
      role: 'tool',
      content: '{"temp": -3}',
      toolCallId: 'call_1',
      toolName: 'web_search',
    });

    assert.deepEqual(user, {
      id: user.id,
      sessionId: session.id,
      inboxId,
      role: 'user',
      content: 'weather in Oslo?',
      toolCalls: null,
      toolCallId: null,
      toolName: null,
      createdAt: 1_000,
    });
    assert.deepEqual(assistant.toolCalls, toolCalls);
    assert.equal(assistant.createdAt, 1_010);
    assert.deepEqual(store.history({ sessionId: session.id }), [user, assistant, tool]);
    assert.deepEqual(store.history({ sessionId: 'other' }), []);
    store.close();
  });

  test('latestAssistantMessages: the newest assistant rows of the session, newest first, hidden ones left out', () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    const session = store.createSession({ key: 'k' });
    const other = store.createSession({ key: 'other' });
    const assistants = [];
    for (let i = 0; i < 5; i++) {
      store.appendMessage({ sessionId: session.id, role: 'user', content: `question ${i}` });
      assistants.push(store.appendMessage({ sessionId: session.id, role: 'assistant', content: `answer ${i}` }));
      store.appendMessage({ sessionId: other.id, role: 'assistant', content: `elsewhere ${i}` });
    }
    assert.deepEqual(
      store.latestAssistantMessages({ sessionId: session.id, limit: 3 }).map((m) => m.content),
      ['answer 4', 'answer 3', 'answer 2'],
    );
    store.hideMessages({ sessionId: session.id, fromMessageId: assistants[4]?.id ?? 0, hiddenBy: 99 });
    assert.deepEqual(
      store.latestAssistantMessages({ sessionId: session.id, limit: 2 }).map((m) => m.content),
      ['answer 3', 'answer 2'],
    );
    assert.deepEqual(store.latestAssistantMessages({ sessionId: session.id, limit: 0 }), []);
    store.close();
  });

  test('only the tool call fields of the contract are stored', () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    const session = store.createSession({ key: 'k' });
    const extra = { id: 'c', name: 'n', arguments: '{}', type: 'function' };
    const saved = store.appendMessage({ sessionId: session.id, role: 'assistant', content: '', toolCalls: [extra] });
    assert.deepEqual(store.history({ sessionId: session.id })[0]?.toolCalls, [{ id: 'c', name: 'n', arguments: '{}' }]);
    assert.equal(saved.inboxId, null);
    store.close();
  });

  test("deleteTurnMessages removes exactly one turn's entries", () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    const session = store.createSession({ key: 'k' });
    const turn1 = store.recordInbound({ event: makeEvent({ messageId: '1' }), sessionKey: 'k' }).row.id;
    const turn2 = store.recordInbound({ event: makeEvent({ messageId: '2' }), sessionKey: 'k' }).row.id;
    store.appendMessage({ sessionId: session.id, role: 'system', content: 'summary' });
    store.appendMessage({ sessionId: session.id, inboxId: turn1, role: 'user', content: 'q1' });
    store.appendMessage({ sessionId: session.id, inboxId: turn1, role: 'assistant', content: 'a1' });
    store.appendMessage({ sessionId: session.id, inboxId: turn2, role: 'user', content: 'q2' });

    assert.equal(store.deleteTurnMessages({ inboxId: turn2 }), 1);
    assert.equal(store.deleteTurnMessages({ inboxId: turn2 }), 0);
    assert.deepEqual(store.history({ sessionId: session.id }).map((m) => m.content), ['summary', 'q1', 'a1']);
    assert.equal(store.getSession({ sessionId: session.id })?.messageCount, 3);
    store.close();
  });

  test('a message must belong to an existing session', () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    assert.throws(() => store.appendMessage({ sessionId: 'missing', role: 'user', content: 'x' }), /FOREIGN KEY/);
    store.close();
  });
});

test('history with a limit returns only the newest messages, in order', () => {
  const store = openStore({ path: ':memory:', clock: new FakeClock() });
  const session = store.createSession({ key: 'k' });
  for (let i = 0; i < 10; i++) store.appendMessage({ sessionId: session.id, role: 'user', content: `m${i}` });
  assert.deepEqual(store.history({ sessionId: session.id, limit: 3 }).map((m) => m.content), ['m7', 'm8', 'm9']);
  assert.equal(store.history({ sessionId: session.id }).length, 10);
  store.close();
});
