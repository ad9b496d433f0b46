import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { askToRun, choiceOf, lastToolResult, makeBuild, pressAndSettle, questions, scriptCommand, shows, startApprovals, waitQuestion } from '../helpers/approvals.js';
import { until } from '../helpers/converse.js';

test('a dangerous command asks the owner with four buttons; Deny: not run, the question shows it without buttons, the model is told', async () => {
  const h = await startApprovals();
  try {
    const build = makeBuild(h);
    const q = await askToRun(h, { command: 'rm -rf build', text: 'clean up', final: 'ok, I left it' });
    assert.match(q.text, /^⚠️ The agent wants to run a dangerous command \(terminal\):\n`rm -rf build`\n• recursive delete \(rm -r\)\n\nOnly the owner can answer\. No answer in 5 min means no\.$/);
    assert.deepEqual(q.choices.map((c) => c.label), ['Allow once', 'Allow for this session', 'Always allow', 'Deny']);
    assert.ok(q.choices.every((c) => /^ap:[0-9a-f]{12}:(once|session|always|deny)$/.test(c.id) && Buffer.byteLength(c.id) <= 64), JSON.stringify(q.choices));
    assert.equal(h.fake.requests.length, 1, 'the turn went on without waiting');
    const denyId = choiceOf(q, 'Deny');
    assert.equal((await pressAndSettle(h, q, 'Deny')).notice, '⛔ Denied by Tester');
    assert.ok(existsSync(build), 'the denied command ran');
    assert.match(lastToolResult(h), /^Not run: the owner denied it \(Tester pressed Deny or answered \/deny\)\. Do not retry it; ask the owner or choose another way\.$/);
    assert.match(q.text, /`rm -rf build`\n• recursive delete \(rm -r\)\n\n⛔ Denied by Tester$/);
    assert.deepEqual(q.choices, [], 'the decided question still has buttons');
    assert.ok(shows(h, 'ok, I left it'), h.adapter.shown().map((m) => m.text).join('\n---\n'));
    assert.deepEqual(await h.adapter.press({ messageId: q.id, choiceId: denyId }), { notice: 'This question was already answered or has expired.', retire: true });
  } finally {
    await h.stop();
  }
});

test('Allow once runs the command (the folder is gone); the same command again asks again', async () => {
  const h = await startApprovals();
  try {
    const build = makeBuild(h);
    const q = await askToRun(h, { command: 'rm -rf build', text: 'clean up', final: 'cleaned' });
    const onceId = choiceOf(q, 'Allow once');
    assert.equal((await pressAndSettle(h, q, 'Allow once')).notice, '✅ Allowed once by Tester');
    assert.equal(existsSync(build), false, 'the allowed command did not run');
    assert.equal(lastToolResult(h), '(no output)\n[exit code: 0]');
    assert.match(q.text, /\n\n✅ Allowed once by Tester$/);
    assert.deepEqual(q.choices, []);
    // A press of the answered question's button: expired, its buttons retired.
    assert.deepEqual(await h.adapter.press({ messageId: q.id, choiceId: onceId }), { notice: 'This question was already answered or has expired.', retire: true });

    makeBuild(h);
    const second = await askToRun(h, { command: 'rm -rf build', text: 'clean up again', final: 'cleaned again', n: 2 });
    assert.notEqual(second.id, q.id);
    await pressAndSettle(h, second, 'Deny');
    assert.ok(existsSync(build), 'once allowed more than once');
  } finally {
    await h.stop();
  }
});

test('Allow for this session: the same kind of command runs without asking for the rest of the session, until a restart', async () => {
  const h = await startApprovals();
  try {
    const build = makeBuild(h);
    const q = await askToRun(h, { command: 'rm -rf build', text: 'clean up' });
    await pressAndSettle(h, q, 'Allow for this session');
    assert.equal(existsSync(build), false);
    assert.match(q.text, /✅ Allowed for this session by Tester$/);
    makeBuild(h);
    scriptCommand(h, 'rm -rf build');
    await h.adapter.inject({ text: 'again' });
    await h.runner.waitIdle();
    assert.equal(existsSync(build), false, 'the session allowance did not hold');
    assert.equal(questions(h).length, 1, 'asked again within the session');
    await h.restart();
    makeBuild(h);
    const again = await askToRun(h, { command: 'rm -rf build', text: 'after the restart', n: 2 });
    await pressAndSettle(h, again, 'Deny');
    assert.ok(existsSync(build), 'a restart kept the session allowance');
  } finally {
    await h.stop();
  }
});

test('Allow for this session ends with /new: the new conversation asks again', async () => {
  const h = await startApprovals();
  try {
    const build = makeBuild(h);
    scriptCommand(h, 'rm -rf build');
    await h.adapter.inject({ text: 'clean up' });
    const q = await waitQuestion(h);
    await h.adapter.press({ messageId: q.id, choiceId: choiceOf(q, 'Allow for this session') });
    await h.runner.waitIdle();
    assert.equal(existsSync(build), false);
    await h.adapter.inject({ text: '/new' });
    await until(() => h.adapter.shown().some((m) => m.text.startsWith('Started a new conversation')), 'the /new reply');
    makeBuild(h);
    scriptCommand(h, 'rm -rf build');
    await h.adapter.inject({ text: 'clean up in the new conversation' });
    const again = await waitQuestion(h, 2);
    await h.adapter.press({ messageId: again.id, choiceId: choiceOf(again, 'Deny') });
    await h.runner.waitIdle();
    assert.ok(existsSync(build), 'the new session inherited the allowance');
  } finally {
    await h.stop();
  }
});

test('Always allow stores a rule per pattern; after a restart on the same home the command runs without asking', async () => {
  const h = await startApprovals();
  try {
    const build = makeBuild(h);
    const q = await askToRun(h, { command: 'rm -rf build', text: 'clean up' });
    await pressAndSettle(h, q, 'Always allow');
    assert.equal(existsSync(build), false);
    const store = h.readStore();
    try {
      assert.deepEqual(store.approvalRules().map((r) => [r.patternId, r.description, r.example]), [['recursive-delete', 'recursive delete (rm -r)', 'rm -rf build']]);
    } finally {
      store.close();
    }
    await h.restart();
    makeBuild(h);
    scriptCommand(h, 'rm -rf build', 'gone');
    await h.adapter.inject({ text: 'clean up after the restart' });
    await h.runner.waitIdle();
    assert.equal(existsSync(build), false, 'the always rule did not survive the restart');
    assert.equal(questions(h).length, 1, 'asked again despite the rule');
    assert.ok(shows(h, 'gone'), h.adapter.shown().map((m) => m.text).join('\n---\n'));
  } finally {
    await h.stop();
  }
});

test('a press by someone who is not an owner (a group member) changes nothing; the owner then answers', async () => {
  const h = await startApprovals();
  try {
    const build = makeBuild(h);
    const q = await askToRun(h, { command: 'rm -rf build', text: 'clean up' });
    const stranger = await h.adapter.press({ messageId: q.id, choiceId: choiceOf(q, 'Allow once'), sender: { id: 'user-9', name: 'Mallory' } });
    assert.deepEqual(stranger, { notice: 'Only the owner can answer this.' });
    assert.equal(q.choices.length, 4, 'the buttons went away');
    assert.equal(h.fake.requests.length, 1, 'the turn went on');
    assert.ok(existsSync(build));
    // A bot on the allowlist's id does not count either.
    assert.deepEqual(await h.adapter.press({ messageId: q.id, choiceId: choiceOf(q, 'Allow once'), sender: { id: 'user-1', isBot: true } }), { notice: 'Only the owner can answer this.' });
    await pressAndSettle(h, q, 'Deny');
    assert.ok(existsSync(build));
    assert.match(lastToolResult(h), /^Not run: the owner denied it/);
  } finally {
    await h.stop();
  }
});

test('/stop while a command waits denies it, edits the question, and its buttons do nothing later', async () => {
  const h = await startApprovals();
  try {
    const build = makeBuild(h);
    const q = await askToRun(h, { command: 'rm -rf build', text: 'clean up' });
    const onceId = choiceOf(q, 'Allow once');
    await h.adapter.inject({ text: '/stop' });
    await h.runner.waitIdle();
    await until(() => /⛔ Denied: the turn was stopped \(\/stop\)$/.test(q.text), 'the question edited');
    assert.deepEqual(q.choices, []);
    assert.deepEqual(await h.adapter.press({ messageId: q.id, choiceId: onceId }), { notice: 'This question was already answered or has expired.', retire: true });
    assert.ok(existsSync(build));
  } finally {
    await h.stop();
  }
});

test('a new message while a command waits interrupts the turn: denied, the question says why, its buttons do nothing later', async () => {
  const h = await startApprovals();
  try {
    const build = makeBuild(h);
    scriptCommand(h, 'rm -rf build');
    await h.adapter.inject({ text: 'clean up' });
    const q = await waitQuestion(h);
    const onceId = choiceOf(q, 'Allow once');
    h.fake.enqueue({ text: 'fine, I will not' });
    await h.adapter.inject({ text: 'no wait, leave it' });
    await until(() => /⛔ Denied: a new message interrupted the turn$/.test(q.text), 'the question edited');
    await h.runner.waitIdle();
    assert.deepEqual(q.choices, []);
    assert.deepEqual(await h.adapter.press({ messageId: q.id, choiceId: onceId }), { notice: 'This question was already answered or has expired.', retire: true });
    await h.runner.waitIdle();
    assert.ok(existsSync(build), 'the command ran after the turn was interrupted');
  } finally {
    await h.stop();
  }
});
