import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CapturedRequest } from '../fakes/openai/server.js';
import { choiceOf } from '../helpers/approvals.js';
import { clarifyQuestions, clarifyResult, startClarify, waitClarify } from '../helpers/clarify.js';
import { until } from '../helpers/converse.js';

/** The user text a request answers (its first user message after the system prompt). */
function asked(request: CapturedRequest): string {
  return String((request.body.messages ?? []).find((m) => m['role'] === 'user')?.['content'] ?? '');
}

test('clarify with 5 choices or an empty question: the model gets a clear error and nothing is asked', async () => {
  const h = await startClarify();
  try {
    h.fake.enqueue(
      { toolCalls: [{ name: 'clarify', arguments: { question: 'Colour?', choices: ['a', 'b', 'c', 'd', 'e'] } }] },
      { toolCalls: [{ name: 'clarify', arguments: { question: '  ' } }] },
      { text: 'picked red myself' },
    );
    await h.adapter.inject({ text: 'make a logo' });
    await until(() => h.adapter.shown().some((m) => m.text === 'picked red myself'), 'the final answer');
    await h.runner.waitIdle();
    assert.equal(clarifyQuestions(h).length, 0, 'a question was asked');
    const results = (h.fake.requests.at(-1)?.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content']));
    assert.deepEqual(results, [
      'Error: invalid arguments for clarify: choices: at most 4 choices; offer the likeliest ones (the owner can always answer in their own words).',
      'Error: invalid arguments for clarify: question: the question is empty; ask something the owner can answer.',
    ]);
  } finally {
    await h.stop();
  }
});

test('in a group, a paired member (not an owner) writing "1" while the owner\'s question waits does not answer it: it is their own message; the owner\'s press answers', async () => {
  const h = await startClarify();
  try {
    const store = h.readStore();
    try {
      store.approveSender({ platform: 'test', senderId: 'user-7', senderName: 'Paired' });
    } finally {
      store.close();
    }
    h.fake.setResponder((request) => {
      const text = asked(request);
      if (text === '1') return { text: 'hello paired member' };
      const answered = (request.body.messages ?? []).some((m) => m['role'] === 'tool');
      return answered ? { text: 'shipping' } : { toolCalls: [{ name: 'clarify', arguments: { question: 'Ship it?', choices: ['Yes', 'No'] } }] };
    });
    await h.adapter.inject({ text: 'ready to ship?', chatId: 'team', kind: 'group' });
    const q = await waitClarify(h, 1, 'team');
    await h.adapter.inject({ text: '1', chatId: 'team', kind: 'group', senderId: 'user-7' });
    await until(() => h.adapter.shown({ chatId: 'team' }).some((m) => m.text === 'hello paired member'), "the member's own answer");
    assert.equal(q.choices.length, 2, "the member's message ended the question");
    assert.equal(h.fake.requests.filter((r) => asked(r) === 'ready to ship?').length, 1, "the owner's turn went on");
    await h.adapter.press({ messageId: q.id, choiceId: choiceOf(q, 'Yes') });
    await until(() => h.adapter.shown({ chatId: 'team' }).some((m) => m.text === 'shipping'), 'the final answer');
    await h.runner.waitIdle();
    const ownerLast = h.fake.requests.filter((r) => asked(r) === 'ready to ship?').at(-1);
    assert.ok(ownerLast);
    assert.equal(String((ownerLast.body.messages ?? []).find((m) => m['role'] === 'tool')?.['content']), 'Yes');
    assert.equal(clarifyResult(h), 'Yes');
  } finally {
    await h.stop();
  }
});
