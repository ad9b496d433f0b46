import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { askToRun, choiceOf, lastToolResult, makeBuild, questions, TOOL, scriptCommand, shows, startApprovals, waitQuestion } from '../helpers/approvals.js';
import { say, until } from '../helpers/converse.js';
import { FakeClock } from '../helpers/fake-clock.js';
import type { Harness } from '../helpers/harness.js';
import { driveUntil } from '../helpers/jobs.js';

/** Sends a command while a turn waits and resolves with the reply (never waiting for the gateway to go idle). */
async function sayNow(h: Harness, text: string): Promise<string> {
  const before = h.adapter.shown().length;
  await h.adapter.inject({ text });
  await until(() => h.adapter.shown().length > before, `the reply to ${text}`);
  return h.adapter.shown().at(-1)?.text ?? '';
}

/** The chat's messages that are not approval questions and came after `after` of them. */
function replies(h: Harness): string[] {
  return h.adapter.shown().map((m) => m.text);
}

test('no answer within tools.approval_timeout (fake clock): denied, the question says so, the model is told', async () => {
  const clock = new FakeClock();
  const h = await startApprovals({ clock });
  try {
    const build = makeBuild(h);
    scriptCommand(h, 'rm -rf build', 'nobody answered');
    await h.adapter.inject({ text: 'clean up' });
    await driveUntil({ clock, check: () => questions(h).length === 1, what: 'the question' });
    const q = questions(h)[0];
    assert.ok(q);
    await clock.advance(4 * 60_000);
    assert.equal(h.fake.requests.length, 1, 'denied before the timeout');
    await driveUntil({ clock, check: () => shows(h, 'nobody answered'), what: 'the final answer' });
    assert.match(q.text, /\n\n⌛ No answer in 5 min — denied$/);
    assert.deepEqual(q.choices, []);
    assert.match(lastToolResult(h), /^Not run: no answer from the owner within 5 min \(denied\)\. Do not retry it/);
    assert.ok(existsSync(build));
  } finally {
    await h.stop();
  }
});

test('on a platform without buttons the question ends with the commands; /approve answers it; with nothing pending it says so', async () => {
  const h = await startApprovals({ buttons: false });
  try {
    assert.equal(await say(h, '/approve'), 'Nothing is waiting for approval.');
    assert.equal(await say(h, '/deny'), 'Nothing is waiting for approval.');
    const build = makeBuild(h);
    const q = await askToRun(h, { command: 'rm -rf build', text: 'clean up', final: 'cleaned' });
    assert.match(q.text, /\n\nReply \/approve \(once\), \/approve session \(for this conversation\), \/approve always \(this kind of command from now on\) or \/deny\. No answer in 5 min means no\.$/);
    assert.deepEqual(q.choices, []);
    assert.match(await sayNow(h, '/approve sometimes'), /^Unknown answer "sometimes"/);
    await h.adapter.inject({ text: '/approve' });
    await until(() => shows(h, 'cleaned'), 'the final answer');
    await h.runner.waitIdle();
    assert.equal(existsSync(build), false, 'the approved command did not run');
    assert.ok(replies(h).includes('✅ Allowed once by Tester: `rm -rf build` (the oldest waiting request).'), replies(h).join('\n---\n'));
    assert.match(q.text, /✅ Allowed once by Tester$/);
    // The command was answered at once: it never reached the model nor interrupted the waiting turn.
    assert.ok(h.fake.requests.every((r) => !JSON.stringify(r.body.messages).includes('/approve')), 'the /approve reached the model');
  } finally {
    await h.stop();
  }
});

test('/deny on a text platform denies; /approve from a paired sender (not an owner) changes nothing', async () => {
  const h = await startApprovals({ buttons: false });
  try {
    const store = h.readStore();
    try {
      store.approveSender({ platform: 'test', senderId: 'user-7', senderName: 'Paired' });
    } finally {
      store.close();
    }
    const build = makeBuild(h);
    await askToRun(h, { command: 'rm -rf build', text: 'clean up', final: 'left it' });
    await h.adapter.inject({ text: '/approve', senderId: 'user-7' });
    await until(() => replies(h).some((t) => t.startsWith('Only the owner')), 'the refusal');
    assert.equal(h.fake.requests.length, 1, 'the turn went on');
    await h.adapter.inject({ text: '/deny' });
    await until(() => shows(h, 'left it'), 'the final answer');
    assert.ok(existsSync(build));
    assert.match(lastToolResult(h), /^Not run: the owner denied it/);
  } finally {
    await h.stop();
  }
});

test('a job-started turn is denied without asking; mode off runs without asking', async () => {
  const h = await startApprovals();
  try {
    const build = makeBuild(h);
    scriptCommand(h, 'rm -rf build', 'job done');
    const injected = h.runner.inject({ platform: 'test', chat: { id: 'chat-1', kind: 'dm' }, text: 'Clean the build.', sessionKey: 'job:x:1', origin: { kind: 'job', jobId: 'x', runId: 1 }, messageId: 'job-x-1' });
    assert.equal(injected.kind, 'queued');
    if (injected.kind === 'queued') await injected.finished;
    assert.equal(questions(h).length, 0, 'a job turn asked');
    assert.match(lastToolResult(h), /^Not run: scheduled turns \(jobs, heartbeat, checks\) cannot run dangerous commands; nobody is there to approve it\. The owner can run it in a chat\. Do not retry it/);
    assert.ok(existsSync(build));
  } finally {
    await h.stop();
  }
  const off = await startApprovals({ mode: 'off' });
  try {
    const build = makeBuild(off);
    scriptCommand(off, 'rm -rf build', 'gone');
    assert.equal(await say(off, 'clean up'), 'gone');
    assert.equal(existsSync(build), false);
    assert.equal(questions(off).length, 0);
  } finally {
    await off.stop();
  }
});

test('a platform that lets everyone in has no owner: denied without asking', async () => {
  const { startHarness } = await import('../helpers/harness.js');
  const h = await startHarness({ allow: 'all', capabilities: { buttons: true } });
  try {
    const build = makeBuild(h);
    scriptCommand(h, 'rm -rf build', 'no');
    assert.equal(await say(h, 'clean up'), 'no');
    assert.equal(questions(h).length, 0);
    assert.match(lastToolResult(h), /^Not run: no one can approve commands here: test has no owner \(set its allowed_users in config\)\./);
    assert.ok(existsSync(build));
  } finally {
    await h.stop();
  }
});

test('smart: the auxiliary model answering APPROVE runs it without asking; ESCALATE and a garbage answer ask the owner; DENY denies', async () => {
  const h = await startApprovals({ mode: 'smart' });
  try {
    const build = makeBuild(h);
    h.fake.enqueue({ toolCalls: [{ name: TOOL, arguments: { command: 'rm -rf build' } }] }, { text: 'APPROVE' }, { text: 'smart ran it' });
    assert.equal(await say(h, 'clean up'), 'smart ran it');
    assert.equal(existsSync(build), false);
    assert.equal(questions(h).length, 0);
    const judge = h.fake.requests[1];
    assert.notEqual(judge?.body.stream, true, 'the judge call streams');
    assert.match(JSON.stringify(judge?.body.messages), /rm -rf build.*recursive delete \(rm -r\)/);

    for (const [n, verdict] of [[1, 'ESCALATE'], [2, 'Sure, looks fine to me!']] as const) {
      makeBuild(h);
      h.fake.enqueue({ toolCalls: [{ name: TOOL, arguments: { command: 'rm -rf build' } }] }, { text: verdict }, { text: `asked ${n}` });
      await h.adapter.inject({ text: `clean up ${n}` });
      const q = await waitQuestion(h, n);
      await h.adapter.press({ messageId: q.id, choiceId: choiceOf(q, 'Deny') });
      await until(() => shows(h, `asked ${n}`), `answer ${n}`);
      await h.runner.waitIdle();
    }
    h.fake.enqueue({ toolCalls: [{ name: TOOL, arguments: { command: 'rm -rf build' } }] }, { text: 'DENY: it deletes more than asked' }, { text: 'denied by judge' });
    assert.equal(await say(h, 'clean up 3'), 'denied by judge');
    assert.equal(questions(h).length, 2);
    assert.match(lastToolResult(h), /^Not run: the reviewing model denied it: it deletes more than asked\./);
    assert.ok(existsSync(build));
  } finally {
    await h.stop();
  }
});
