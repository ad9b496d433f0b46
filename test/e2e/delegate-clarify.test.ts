import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CapturedRequest } from '../fakes/openai/server.js';
import { clarifyQuestions, startClarify, waitClarify } from '../helpers/clarify.js';
import { until } from '../helpers/converse.js';
import { childRequests, delegateResponder, parentRequests } from '../helpers/delegate.js';
import { withStore } from '../helpers/jobs.js';

/** The stored tool results of chat-1's session. */
function storedToolResults(h: Parameters<typeof withStore>[0]): string[] {
  return withStore(h, (store) => {
    const key = store.getInbound({ inboxId: 1 })?.sessionKey ?? '';
    const session = store.activeSession({ key });
    return session === undefined ? [] : store.history({ sessionId: session.id }).filter((m) => m.role === 'tool').map((m) => m.content ?? '');
  });
}

test('/stop in a round that runs children and then asks clarify: the children stop within a second and the question is never left waiting', async () => {
  const h = await startClarify();
  try {
    const goals = ['slow1', 'slow2'];
    h.fake.setResponder(
      delegateResponder({
        parent: () => ({
          toolCalls: [
            { name: 'delegate_task', arguments: { tasks: goals.map((goal) => ({ goal })) } },
            { name: 'clarify', arguments: { question: 'Which one next?', choices: ['A', 'B'] } },
          ],
        }),
        child: () => ({ chunks: ['working ', 'on it'], hangAfterChunks: 1 }),
      }),
    );
    await h.adapter.inject({ text: 'research then ask' });
    await until(() => childRequests({ requests: h.fake.requests }).size === 2, 'two child requests');
    // clarify never runs beside another tool: while the children run, nothing is asked yet.
    assert.equal(clarifyQuestions(h).length, 0, 'clarify was asked while the children ran');
    const stoppedAt = Date.now();
    await h.adapter.inject({ text: '/stop' });
    const children = (): CapturedRequest[] => [...childRequests({ requests: h.fake.requests }).values()].flat();
    await until(() => children().every((r) => r.cut === true), 'every child request aborted');
    for (const request of children()) assert.ok((request.ended ?? Infinity) - stoppedAt < 1000, `a child request ended ${(request.ended ?? 0) - stoppedAt} ms after /stop`);
    await h.runner.waitIdle();
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(clarifyQuestions(h).length, 0, 'the stopped turn still asked its question');
    assert.equal(parentRequests({ requests: h.fake.requests }).length, 1, 'the stopped turn asked the model again');
    const results = storedToolResults(h);
    assert.equal(results.length, 2, JSON.stringify(results));
    assert.ok(results.every((r) => /interrupt|stopped/i.test(r)), JSON.stringify(results));
  } finally {
    await h.stop();
  }
});

test('/stop while clarify waits after the children finished: the question ends unanswered and the turn stops', async () => {
  const h = await startClarify();
  try {
    h.fake.setResponder(
      delegateResponder({
        parent: (round) =>
          round === 0
            ? { toolCalls: [{ name: 'delegate_task', arguments: { goal: 'quick' } }] }
            : round === 1
              ? { toolCalls: [{ name: 'clarify', arguments: { question: 'Use what the child found?', choices: ['Yes', 'No'] } }] }
              : { text: 'never sent' },
        child: () => ({ text: 'child summary' }),
      }),
    );
    await h.adapter.inject({ text: 'delegate then ask' });
    const q = await waitClarify(h);
    await h.adapter.inject({ text: '/stop' });
    await until(() => q.text.endsWith('⛔ Not answered: the turn was stopped (/stop)'), 'the question ended');
    await h.runner.waitIdle();
    assert.deepEqual(q.choices, []);
    assert.equal(parentRequests({ requests: h.fake.requests }).length, 2);
    assert.ok(!h.adapter.shown().some((m) => m.text === 'never sent'));
  } finally {
    await h.stop();
  }
});
