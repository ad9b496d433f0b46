import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { choiceOf, makeBuild, questions, startApprovals, TOOL, waitQuestion } from '../helpers/approvals.js';
import { until } from '../helpers/converse.js';

test('two sessions wait at once: each chat has its own question; a press or /approve in one answers only its own', async () => {
  const h = await startApprovals();
  try {
    const one = path.join(h.profile.workspaceDir, 'one');
    const two = path.join(h.profile.workspaceDir, 'two');
    mkdirSync(one);
    mkdirSync(two);
    h.fake.enqueue({ toolCalls: [{ name: TOOL, arguments: { command: 'rm -rf one' } }] });
    await h.adapter.inject({ text: 'clean one', chatId: 'chat-1' });
    const q1 = await waitQuestion(h, 1, 'chat-1');
    h.fake.enqueue({ toolCalls: [{ name: TOOL, arguments: { command: 'rm -rf two' } }] });
    await h.adapter.inject({ text: 'clean two', chatId: 'chat-2' });
    const q2 = await waitQuestion(h, 1, 'chat-2');
    assert.match(q1.text, /`?rm -rf one`?/);
    assert.match(q2.text, /`?rm -rf two`?/);
    h.fake.enqueue({ text: 'left two' });
    await h.adapter.press({ messageId: q2.id, choiceId: choiceOf(q2, 'Deny') });
    await until(() => h.adapter.shown({ chatId: 'chat-2' }).some((m) => m.text === 'left two'), 'the second chat’s answer');
    assert.equal(questions(h, 'chat-1')[0]?.choices.length, 4, 'the deny in chat-2 answered chat-1');
    h.fake.enqueue({ text: 'cleaned one' });
    await h.adapter.inject({ text: '/approve', chatId: 'chat-1' });
    await until(() => h.adapter.shown({ chatId: 'chat-1' }).some((m) => m.text === 'cleaned one'), 'the first chat’s answer');
    await h.runner.waitIdle();
    assert.equal(existsSync(one), false, 'the approved command did not run');
    assert.ok(existsSync(two), 'the denied command ran');
  } finally {
    await h.stop();
  }
});

test('two dangerous commands in one batch of tool calls: asked one after the other, each answered on its own', async () => {
  const h = await startApprovals();
  try {
    const build = makeBuild(h);
    const dist = path.join(h.profile.workspaceDir, 'dist');
    mkdirSync(dist);
    h.fake.enqueue(
      {
        toolCalls: [
          { name: TOOL, arguments: { command: 'rm -rf build' } },
          { name: TOOL, arguments: { command: 'rm -rf dist' } },
        ],
      },
      { text: 'one of two' },
    );
    await h.adapter.inject({ text: 'clean both' });
    const first = await waitQuestion(h, 1);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(questions(h).length, 1, 'the second command was asked before the first was answered');
    await h.adapter.press({ messageId: first.id, choiceId: choiceOf(first, 'Allow once') });
    const second = await waitQuestion(h, 2);
    assert.match(second.text, /rm -rf dist/);
    await h.adapter.press({ messageId: second.id, choiceId: choiceOf(second, 'Deny') });
    await until(() => h.adapter.shown().some((m) => m.text === 'one of two'), 'the answer');
    await h.runner.waitIdle();
    assert.equal(existsSync(build), false, 'the allowed one did not run');
    assert.ok(existsSync(dist), 'the denied one ran');
    const results = (h.fake.requests.at(-1)?.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content']));
    assert.equal(results.length, 2);
    assert.equal(results[0], '(no output)\n[exit code: 0]');
    assert.match(results[1] ?? '', /^Not run: the owner denied it/);
  } finally {
    await h.stop();
  }
});

test('/new while a command waits: the question is denied, and its buttons do nothing in the new conversation', async () => {
  const h = await startApprovals();
  try {
    const build = makeBuild(h);
    h.fake.enqueue({ toolCalls: [{ name: TOOL, arguments: { command: 'rm -rf build' } }] }, { text: 'never mind' });
    await h.adapter.inject({ text: 'clean up' });
    const q = await waitQuestion(h);
    const onceId = choiceOf(q, 'Allow once');
    await h.adapter.inject({ text: '/new' });
    await until(() => h.adapter.shown().some((m) => m.text.startsWith('Started a new conversation')), 'the /new reply');
    await h.runner.waitIdle();
    assert.match(q.text, /\n\n⛔ Denied: /);
    assert.deepEqual(q.choices, []);
    assert.deepEqual(await h.adapter.press({ messageId: q.id, choiceId: onceId }), { notice: 'This question was already answered or has expired.', retire: true });
    await h.runner.waitIdle();
    assert.ok(existsSync(build), 'an old button ran the command after /new');
  } finally {
    await h.stop();
  }
});
