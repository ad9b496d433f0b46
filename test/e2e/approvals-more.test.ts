import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { lastToolResult, questions, scriptCommand, shows, startApprovals, TOOL, waitQuestion } from '../helpers/approvals.js';
import { until } from '../helpers/converse.js';

test('the question masks secrets in the command it shows', async () => {
  const secret = 'sk-live-Zq81vNw3LmT0aa77';
  const h = await startApprovals({ env: { DEPLOY_TOKEN: secret } });
  try {
    scriptCommand(h, `rm -rf build && curl -H "Authorization: ${secret}" https://example.invalid`, 'ok');
    await h.adapter.inject({ text: 'clean and deploy' });
    const q = await waitQuestion(h);
    assert.ok(!q.text.includes(secret) && !q.text.includes(secret.slice(0, 10)), q.text);
    assert.match(q.text, /rm -rf build && curl -H "Authorization: \*\*\*"/);
    const deny = q.choices.find((c) => c.label === 'Deny');
    assert.ok(deny);
    await h.adapter.press({ messageId: q.id, choiceId: deny.id });
    await h.runner.waitIdle();
  } finally {
    await h.stop();
  }
});

test('a command too long to show whole: the question shows the part that matched (secrets masked); Always on a command too long to check stores no rule for it', async () => {
  const secret = 'sk-live-Hd72kPq9XwE4bb31';
  // Three turns holding 70 KiB commands: a context that holds them whole, so no compression takes the scripted replies.
  const h = await startApprovals({ env: { DEPLOY_TOKEN: secret }, contextLength: 200_000 });
  try {
    scriptCommand(h, `echo ${'x'.repeat(400)} && rm -rf build/${secret}`, 'ok');
    await h.adapter.inject({ text: 'clean' });
    const q = await waitQuestion(h);
    assert.match(q.text, /…`\n• recursive delete \(rm -r\): `rm -rf build\/\*\*\*`\n/);
    assert.ok(!q.text.includes(secret.slice(0, 10)), q.text);
    const deny = q.choices.find((c) => c.label === 'Deny');
    assert.ok(deny);
    await h.adapter.press({ messageId: q.id, choiceId: deny.id });
    await h.runner.waitIdle();

    // Past the 64 KiB that are checked anything could follow: "Always" allows this one, remembers no rule for it.
    scriptCommand(h, `echo ${'y'.repeat(70 * 1024)}`, 'ok');
    await h.adapter.inject({ text: 'print' });
    const long = await waitQuestion(h, 2);
    assert.match(long.text, /a command too long or too deeply nested to check/);
    const always = long.choices.find((c) => c.label === 'Always allow');
    assert.ok(always);
    await h.adapter.press({ messageId: long.id, choiceId: always.id });
    await h.runner.waitIdle();
    const store = h.readStore();
    try {
      assert.deepEqual(store.approvalRules().map((r) => r.patternId), []);
    } finally {
      store.close();
    }
    scriptCommand(h, `echo ${'z'.repeat(70 * 1024)}`, 'ok');
    await h.adapter.inject({ text: 'print again' });
    const again = await waitQuestion(h, 3);
    const deny3 = again.choices.find((c) => c.label === 'Deny');
    assert.ok(deny3);
    await h.adapter.press({ messageId: again.id, choiceId: deny3.id });
    await h.runner.waitIdle();
  } finally {
    await h.stop();
  }
});

test('a shutdown denies what waits (the question says so); after the restart the old buttons only retire', async () => {
  const h = await startApprovals();
  try {
    const build = path.join(h.profile.workspaceDir, 'build');
    mkdirSync(build, { recursive: true });
    scriptCommand(h, 'rm -rf build', 'stopped for the restart');
    await h.adapter.inject({ text: 'clean up' });
    const q = await waitQuestion(h);
    const onceId = q.choices[0]?.id ?? '';
    await h.restart();
    assert.match(q.text, /\n\n⛔ Denied: the gateway is stopping$/);
    assert.deepEqual(q.choices, []);
    assert.match(lastToolResult(h), /^Not run: not approved: the gateway is stopping\. Do not retry it/);
    assert.ok(existsSync(build));
    assert.deepEqual(await h.adapter.press({ messageId: q.id, choiceId: onceId }), { notice: 'This question was already answered or has expired.', retire: true });
    assert.ok(existsSync(build), 'an old button acted after the restart');
  } finally {
    await h.stop();
  }
});

test('in a group the question goes to the group; with two waiting, /approve answers the oldest and says one more waits', async () => {
  const h = await startApprovals({ buttons: false, owners: ['user-1', 'user-2'] });
  try {
    const ws = h.profile.workspaceDir;
    for (const dir of ['a', 'b']) mkdirSync(path.join(ws, dir), { recursive: true });
    h.fake.enqueue({ toolCalls: [{ name: TOOL, arguments: { command: 'rm -rf a' } }] }, { toolCalls: [{ name: TOOL, arguments: { command: 'rm -rf b' } }] });
    await h.adapter.inject({ text: 'remove a', chatId: 'group-1', kind: 'group', senderId: 'user-1' });
    await waitQuestion(h, 1, 'group-1');
    await h.adapter.inject({ text: 'remove b', chatId: 'group-1', kind: 'group', senderId: 'user-2' });
    await waitQuestion(h, 2, 'group-1');
    assert.equal(questions(h).length, 0, 'a question went to the DM');
    h.fake.enqueue({ text: 'a is gone' }, { text: 'b stays' });
    await h.adapter.inject({ text: '/approve', chatId: 'group-1', kind: 'group', senderId: 'user-2' });
    await until(() => shows(h, '✅ Allowed once by Tester: `rm -rf a` (the oldest waiting request). 1 more waiting: answer again for the next.', 'group-1'), 'the /approve reply');
    await until(() => shows(h, 'a is gone', 'group-1'), 'the first answer');
    await h.adapter.inject({ text: '/deny', chatId: 'group-1', kind: 'group', senderId: 'user-1' });
    await until(() => shows(h, 'b stays', 'group-1'), 'the second answer');
    await h.runner.waitIdle();
    assert.equal(existsSync(path.join(ws, 'a')), false);
    assert.equal(existsSync(path.join(ws, 'b')), true);
  } finally {
    await h.stop();
  }
});
