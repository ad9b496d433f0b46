import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { choiceOf } from '../helpers/approvals.js';
import { clarifyQuestions, clarifyResult, scriptClarify, startClarify, waitClarify } from '../helpers/clarify.js';
import { until } from '../helpers/converse.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { driveUntil, withStore } from '../helpers/jobs.js';
import { tinyPng } from '../helpers/images.js';

const expired = { notice: 'This question was already answered or has expired.', retire: true };

test('clarify with choices shows a button per choice; the owner presses one → the model\'s next request holds its text, the question shows the answer without buttons', async () => {
  const h = await startClarify();
  try {
    scriptClarify(h, { question: 'Which colour for the logo?', choices: ['Red', 'Blue', 'Green'], final: 'Blue it is' });
    await h.adapter.inject({ text: 'make a logo' });
    const q = await waitClarify(h);
    assert.equal(q.text, '❓ Which colour for the logo?\n\nPress a button, or reply with your own answer. No answer in 5 min: the agent goes on without one.');
    assert.deepEqual(q.choices.map((c) => c.label), ['Red', 'Blue', 'Green']);
    assert.ok(q.choices.every((c) => /^cl:[0-9a-f]{12}:[0-2]$/.test(c.id)), JSON.stringify(q.choices));
    assert.equal(h.fake.requests.length, 1, 'the turn went on without waiting');
    const blue = choiceOf(q, 'Blue');
    assert.deepEqual(await h.adapter.press({ messageId: q.id, choiceId: blue }), { notice: '✅ Tester answered: Blue' });
    await until(() => h.adapter.shown().some((m) => m.text === 'Blue it is'), 'the final answer');
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 2);
    assert.equal(clarifyResult(h), 'Blue');
    assert.equal(q.text, '❓ Which colour for the logo?\n\n✅ Tester answered: Blue');
    assert.deepEqual(q.choices, [], 'the answered question still has buttons');
    assert.deepEqual(await h.adapter.press({ messageId: q.id, choiceId: blue }), expired);
    // The clarify tool is offered, with Hermes Agent's arguments.
    const offered = (h.fake.requests[0]?.body.tools ?? []).map((t) => JSON.stringify(t)).find((t) => t.includes('"name":"clarify"')) ?? '';
    assert.match(offered, /"properties":\{"question":\{"type":"string"/);
    assert.match(offered, /"choices":\{[^}]*"maxItems":4,"type":"array"/);
  } finally {
    await h.stop();
  }
});

test('without buttons the choices are a numbered list; the owner\'s next message "2" picks choice 2, is journaled done and starts no turn (not after a restart either)', async () => {
  const h = await startClarify({ buttons: false });
  try {
    scriptClarify(h, { question: 'Which branch?', choices: ['main', 'release'], final: 'using release' });
    await h.adapter.inject({ text: 'deploy it' });
    const q = await waitClarify(h);
    assert.equal(q.text, '❓ Which branch?\n\n1. main\n2. release\n\nReply with a number (1–2) or your own answer. No answer in 5 min: the agent goes on without one.');
    assert.deepEqual(q.choices, []);
    const answer = await h.adapter.inject({ text: ' 2 ', messageId: 'answer-1' });
    await until(() => h.adapter.shown().some((m) => m.text === 'using release'), 'the final answer');
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 2, 'the answer started a turn of its own');
    assert.equal(clarifyResult(h), 'release');
    assert.equal(q.text, '❓ Which branch?\n\n1. main\n2. release\n\n✅ Tester answered: release');
    const inboxIds = withStore(h, (store) => [1, 2].map((id) => store.getInbound({ inboxId: id })));
    assert.equal(inboxIds[1]?.event.messageId, answer.messageId);
    assert.equal(inboxIds[1]?.state, 'done');
    const shownBefore = h.adapter.shown().length;
    await h.restart();
    await h.runner.waitIdle();
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(h.fake.requests.length, 2, 'the answer was taken up again after the restart');
    assert.equal(h.adapter.shown().length, shownBefore);
  } finally {
    await h.stop();
  }
});

test('an answer in the owner\'s own words (or a choice\'s text in another case) is the answer; a command while it waits is not an answer and acts as today', async () => {
  const h = await startClarify({ buttons: false });
  try {
    scriptClarify(h, { question: 'What should the file be called?', final: 'named it' });
    await h.adapter.inject({ text: 'write the notes' });
    const q = await waitClarify(h);
    assert.equal(q.text, '❓ What should the file be called?\n\nReply with your answer. No answer in 5 min: the agent goes on without one.');
    await h.adapter.inject({ text: '/status' });
    await until(() => h.adapter.shown().some((m) => m.text.includes('Session')), 'the /status reply');
    assert.equal(h.fake.requests.length, 1, 'the command ended the wait');
    assert.doesNotMatch(q.text, /answered/);
    await h.adapter.inject({ text: 'notes-2026.md please' });
    await until(() => h.adapter.shown().some((m) => m.text === 'named it'), 'the final answer');
    await h.runner.waitIdle();
    assert.equal(clarifyResult(h), 'notes-2026.md please');

    scriptClarify(h, { question: 'Tabs or spaces?', choices: ['Tabs', 'Spaces'], final: 'spaces then' });
    await h.adapter.inject({ text: 'format it' });
    await waitClarify(h, 2);
    await h.adapter.inject({ text: 'SPACES' });
    await until(() => h.adapter.shown().some((m) => m.text === 'spaces then'), 'the second answer');
    await h.runner.waitIdle();
    assert.equal(clarifyResult(h), 'Spaces');
  } finally {
    await h.stop();
  }
});

test('a press by someone who is not the owner does nothing (a notice; the question still waits); the owner\'s press then answers', async () => {
  const h = await startClarify();
  try {
    scriptClarify(h, { question: 'Ship it?', choices: ['Yes', 'No'], final: 'shipped' });
    await h.adapter.inject({ text: 'ready?' });
    const q = await waitClarify(h);
    const yes = choiceOf(q, 'Yes');
    assert.deepEqual(await h.adapter.press({ messageId: q.id, choiceId: yes, sender: { id: 'user-2', name: 'Other' } }), { notice: 'Only the owner can answer this.' });
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(h.fake.requests.length, 1, 'a stranger\'s press ended the wait');
    assert.equal(q.choices.length, 2);
    await h.adapter.press({ messageId: q.id, choiceId: yes });
    await until(() => h.adapter.shown().some((m) => m.text === 'shipped'), 'the final answer');
    await h.runner.waitIdle();
    assert.equal(clarifyResult(h), 'Yes');
  } finally {
    await h.stop();
  }
});

test('/stop while a question waits ends it unanswered (the question says so, no buttons) and stops the turn', async () => {
  const h = await startClarify();
  try {
    scriptClarify(h, { question: 'Which one?', choices: ['A', 'B'], final: 'never sent' });
    await h.adapter.inject({ text: 'pick one' });
    const q = await waitClarify(h);
    await h.adapter.inject({ text: '/stop' });
    await until(() => q.text.endsWith('⛔ Not answered: the turn was stopped (/stop)'), 'the question ended');
    await h.runner.waitIdle();
    assert.deepEqual(q.choices, []);
    assert.equal(h.fake.requests.length, 1, 'the stopped turn asked the model again');
    assert.ok(!h.adapter.shown().some((m) => m.text === 'never sent'));
    const stored = withStore(h, (store) => {
      const key = store.getInbound({ inboxId: 1 })?.sessionKey ?? '';
      const session = store.activeSession({ key });
      return session === undefined ? [] : store.history({ sessionId: session.id });
    });
    // What the history keeps for the call: the tool's "no answer", or the scheduler's line for a call the stop cut short.
    const tool = stored.find((m) => m.role === 'tool');
    assert.match(tool?.content ?? '', /^(No answer: the turn was stopped \(\/stop\)\. Go on without it|Interrupted: clarify was still running when the user interrupted the turn)/);
    assert.deepEqual(await h.adapter.press({ messageId: q.id, choiceId: 'cl:000000000000:0' }), expired);
  } finally {
    await h.stop();
  }
});

test('no answer within tools.clarify_timeout (fake clock) → the model is told "no answer" and goes on; the question says so without buttons', async () => {
  const clock = new FakeClock();
  const h = await startClarify({ clock });
  try {
    scriptClarify(h, { question: 'Which colour?', choices: ['Red', 'Blue'], final: 'went with red' });
    await h.adapter.inject({ text: 'make a logo' });
    await driveUntil({ clock, check: () => clarifyQuestions(h).length === 1, what: 'the question', stepMs: 100 });
    const q = clarifyQuestions(h)[0];
    assert.ok(q);
    await clock.advance(4 * 60_000);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(h.fake.requests.length, 1, 'it gave up before the timeout');
    await driveUntil({ clock, check: () => h.adapter.shown().some((m) => m.text === 'went with red'), what: 'the final answer', stepMs: 1000 });
    await h.runner.waitIdle();
    assert.match(clarifyResult(h) ?? '', /^No answer: no answer from the owner within 5 min\. Go on without it/);
    assert.equal(q.text, '❓ Which colour?\n\n⌛ No answer in 5 min — the agent goes on without one');
    assert.deepEqual(q.choices, []);
  } finally {
    await h.stop();
  }
});

test('a scheduled job\'s turn gets no clarify: the tool says it is not available here and nothing is asked', async () => {
  const h = await startClarify();
  try {
    scriptClarify(h, { question: 'Should I?', final: 'decided myself' });
    const injected = h.runner.inject({ platform: 'test', chat: { id: 'chat-1', kind: 'dm' }, text: 'Do the weekly report.', sessionKey: 'job:r:1', origin: { kind: 'job', jobId: 'r', runId: 1 }, messageId: 'job-r-1' });
    assert.equal(injected.kind, 'queued');
    if (injected.kind === 'queued') await injected.finished;
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 2);
    assert.match(clarifyResult(h) ?? '', /clarify is not available here: nobody can be asked in this turn \(a scheduled job/);
    assert.equal(clarifyQuestions(h).length, 0);
  } finally {
    await h.stop();
  }
});

test('a restart while a question waits: it ends unanswered ("the gateway is stopping"); its old button after the restart is answered "expired" and starts nothing', async () => {
  const h = await startClarify();
  try {
    scriptClarify(h, { question: 'Which one?', choices: ['A', 'B'], final: 'went on without it' });
    await h.adapter.inject({ text: 'pick one' });
    const q = await waitClarify(h);
    const a = choiceOf(q, 'A');
    await h.restart();
    assert.match(clarifyResult(h) ?? '', /^No answer: the gateway is stopping\. Go on without it/);
    assert.equal(q.text, '❓ Which one?\n\n⛔ Not answered: the gateway is stopping');
    await h.runner.waitIdle();
    const calls = h.fake.requests.length;
    assert.deepEqual(await h.adapter.press({ messageId: q.id, choiceId: a }), expired);
    await new Promise((r) => setTimeout(r, 200));
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, calls, 'the old button started a turn');
  } finally {
    await h.stop();
  }
});

test('where messages cannot be edited (email, SMS) an unanswered question gets a notice when it times out; an answer gets none', async () => {
  const clock = new FakeClock();
  const h = await startClarify({ clock, buttons: false, capabilities: { edit: false } });
  try {
    scriptClarify(h, { question: 'Which colour?', choices: ['Red', 'Blue'], final: 'red then' });
    await h.adapter.inject({ text: 'make a logo' });
    await driveUntil({ clock, check: () => clarifyQuestions(h).length === 1, what: 'the question', stepMs: 100 });
    await driveUntil({ clock, check: () => h.adapter.shown().some((m) => m.text === 'red then'), what: 'the final answer', stepMs: 10_000 });
    await h.runner.waitIdle();
    assert.ok(h.adapter.shown().some((m) => m.text === '⌛ No answer in 5 min — the agent goes on without one'), h.adapter.shown().map((m) => m.text).join('\n---\n'));

    scriptClarify(h, { question: 'Which size?', choices: ['Small', 'Large'], final: 'small then' });
    await h.adapter.inject({ text: 'and the size?' });
    await driveUntil({ clock, check: () => clarifyQuestions(h).length === 2, what: 'the second question', stepMs: 100 });
    const before = h.adapter.shown().length;
    await h.adapter.inject({ text: '1' });
    await driveUntil({ clock, check: () => h.adapter.shown().some((m) => m.text === 'small then'), what: 'the second answer', stepMs: 100 });
    await h.runner.waitIdle();
    assert.equal(clarifyResult(h), 'Small');
    assert.equal(h.adapter.shown().length, before + 1, 'an answered question sent more than the reply');
  } finally {
    await h.stop();
  }
});

test('a message that is not an answer (a photo without text) interrupts as the busy policy says, and the question ends; /new ends a question too', async () => {
  const h = await startClarify();
  try {
    // The interrupted turn asks the model nothing more: the next reply is the photo's.
    h.fake.enqueue({ toolCalls: [{ name: 'clarify', arguments: { question: 'Which one?', choices: ['A', 'B'] } }] });
    await h.adapter.inject({ text: 'pick one' });
    const q = await waitClarify(h);
    const photo = path.join(h.profile.cacheDir, 'photo.png');
    writeFileSync(photo, tinyPng);
    h.fake.enqueue({ text: 'nice photo' });
    await h.adapter.inject({ text: '', media: [{ path: photo, kind: 'image', mimeType: 'image/png' }] });
    await until(() => h.adapter.shown().some((m) => m.text === 'nice photo'), 'the photo\'s answer');
    await h.runner.waitIdle();
    assert.equal(q.text, '❓ Which one?\n\n⛔ Not answered: a new message interrupted the turn');

    scriptClarify(h, { question: 'Start over?', choices: ['Yes', 'No'], final: 'never sent either' });
    await h.adapter.inject({ text: 'again' });
    const second = await waitClarify(h, 2);
    await h.adapter.inject({ text: '/new' });
    await until(() => second.text.endsWith('⛔ Not answered: a new conversation was started (/new)'), 'the second question ended');
    await h.runner.waitIdle();
    assert.ok(!h.adapter.shown().some((m) => m.text === 'never sent either'));
  } finally {
    await h.stop();
  }
});
