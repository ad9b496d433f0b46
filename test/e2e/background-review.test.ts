import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { startHarness, type Harness } from '../helpers/harness.js';
import { capturingLogger, reviewLines, reviewTestTools, scriptFake, turnScript, until } from '../helpers/review.js';

async function harness(params: { config?: Record<string, unknown> } = {}): Promise<{ h: Harness; lines: Record<string, unknown>[] }> {
  const { logger, lines } = capturingLogger();
  const h = await startHarness({ editIntervalMs: 20, logger, extraTools: reviewTestTools(), ...(params.config ? { config: params.config } : {}) });
  return { h, lines };
}

/** Sends one message and waits until its turn is done. */
async function say(h: Harness, text: string): Promise<void> {
  await h.adapter.inject({ text });
  await h.runner.waitIdle();
}

/** A short pause for a review that must NOT start (the review starts right after the turn; nothing to poll for). */
const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 300));

test('10+ model calls over two turns trigger exactly one review, whose first request comes after the final edit', async () => {
  const { h, lines } = await harness();
  try {
    const { reviews } = scriptFake({
      h,
      main: [...turnScript({ probes: 6, final: 'first done' }), ...turnScript({ probes: 3, final: 'second done' }), { text: 'third done' }],
      review: () => ({ text: 'nothing to save' }),
    });
    await say(h, 'do the thing');
    await settle();
    assert.equal(reviews.length, 0, '7 model calls: no review yet');
    await say(h, 'again please');
    await until({ predicate: () => reviewLines(lines).length === 1, what: 'the review log line' });
    assert.equal(reviews.length, 1);
    const review = reviews[0];
    assert.ok(review);
    // Order across both fakes: every platform call of the turn (its last edit included) came before the review asked
    // the model, and the last send/edit before it is the turn's final text.
    assert.equal(review.platformCallsBefore, h.adapter.calls.length, 'no platform call of the turn came after the review request');
    const lastShown = h.adapter.calls.slice(0, review.platformCallsBefore).filter((c) => c.kind === 'edit' || c.kind === 'send').at(-1);
    assert.equal(lastShown?.text, 'second done', 'the final edit came before the review request');
    // The review: its instruction, the transcript with tool outcomes, only the review tools.
    const messages = review.req.body.messages ?? [];
    assert.equal(messages.length, 2);
    assert.match(String(messages[0]?.['content']), /nothing to save/);
    const transcript = String(messages[1]?.['content']);
    assert.match(transcript, /\[user\] do the thing/);
    assert.match(transcript, /\[tool call probe\] \[succeeded\]/);
    assert.match(transcript, /second done/);
    const tools = (review.req.body.tools ?? []).map((t) => (t['function'] as { name: string }).name).sort();
    assert.ok(tools.includes('skill_manage') && tools.includes('memory'), `review tools: ${tools.join(', ')}`);
    assert.ok(!tools.includes('probe') && !tools.includes('terminal'), `review tools: ${tools.join(', ')}`);
    const line = reviewLines(lines)[0];
    assert.equal(line?.['result'], 'nothing to save');
    assert.equal(line?.['due'], 'skills');
    assert.equal(line?.['sessionModelCalls'], 11);
    assert.equal(line?.['reviewModelCalls'], 1);
    // The review's usage is the profile's (its log line), not the session's.
    assert.ok(Number(line?.['reviewPromptTokens']) > 0, `review tokens: ${String(line?.['reviewPromptTokens'])}`);
    // One more turn: 12 calls, no new crossing, no new review; the review's call is not the session's usage.
    await say(h, 'thanks');
    await settle();
    assert.equal(reviews.length, 1);
    const store = h.readStore();
    try {
      const session = store.listSessions({ limit: 1 })[0];
      assert.ok(session);
      assert.equal(store.sessionUsage({ sessionId: session.id }).calls, 12);
      assert.ok(!store.history({ sessionId: session.id }).some((m) => m.content.includes('nothing to save')), 'the review is not in the history');
    } finally {
      store.close();
    }
    assert.ok(!h.adapter.shown().some((m) => m.text.includes('nothing to save')), 'nothing of the review reached the chat');
  } finally {
    await h.stop();
  }
});

test('a message sent while the review runs is answered at once and the review request is cut', async () => {
  const { h, lines } = await harness();
  try {
    const { reviews } = scriptFake({
      h,
      main: [...turnScript({ probes: 9, final: 'long job done' }), { text: 'quick answer' }],
      review: () => ({ hangAfterChunks: 0 }),
    });
    await say(h, 'long job');
    await until({ predicate: () => reviews.length === 1, what: 'the review request' });
    // Answered while the review still hangs: bounded well below the review's own time cap.
    await Promise.race([say(h, 'quick question'), new Promise((_, reject) => setTimeout(() => reject(new Error('the message waited for the review')), 3000))]);
    assert.equal(h.adapter.shown().at(-1)?.text, 'quick answer');
    await until({ predicate: () => reviews[0]?.req.cut === true, what: 'the review request to be cut' });
    await until({ predicate: () => reviewLines(lines).length === 1, what: 'the review log line' });
    assert.equal(reviewLines(lines)[0]?.['result'], 'aborted (new_message)');
  } finally {
    await h.stop();
  }
});

test('the memory review every memory.review_interval user turns saves to MEMORY.md; review_notice tells the chat', async () => {
  const { h, lines } = await harness({ config: { memory: { review_interval: 2 }, skills: { review_interval: 1000, review_notice: true } } });
  try {
    const fact = 'The owner deploys with make ship.';
    const { reviews } = scriptFake({
      h,
      main: [{ text: 'one' }, { text: 'two' }],
      review: (_req, index) => (index === 0 ? { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'memory', content: fact } }] } : { text: 'saved one memory entry' }),
    });
    await say(h, 'first');
    await settle();
    assert.equal(reviews.length, 0);
    await say(h, 'second');
    await until({ predicate: () => reviewLines(lines).length === 1, what: 'the review log line' });
    assert.equal(reviews.length, 2);
    assert.match(String(reviews[0]?.req.body.messages?.[0]?.['content']), /Memory holds short lasting facts/);
    assert.doesNotMatch(String(reviews[0]?.req.body.messages?.[0]?.['content']), /skill_manage/);
    const memory = readFileSync(path.join(h.profile.memoriesDir, 'MEMORY.md'), 'utf8');
    assert.ok(memory.includes(fact), memory);
    assert.equal(reviewLines(lines)[0]?.['due'], 'memory');
    await h.adapter.waitFor({ predicate: () => h.adapter.shown().some((m) => m.text === 'saved a memory entry'), what: 'the review notice' });
  } finally {
    await h.stop();
  }
});

test('skills.review: false: 10+ model calls start no review', async () => {
  const { h, lines } = await harness({ config: { skills: { review: false }, memory: { review_interval: 1 } } });
  try {
    const { reviews } = scriptFake({ h, main: turnScript({ probes: 10, final: 'done' }), review: () => ({ text: 'nothing to save' }) });
    await say(h, 'long job');
    await settle();
    assert.equal(reviews.length, 0);
    assert.equal(reviewLines(lines).length, 0);
  } finally {
    await h.stop();
  }
});

test('no skill review for a window in which the agent itself called skill_manage; the next window gets one', async () => {
  const { h, lines } = await harness();
  try {
    const managed = [
      { toolCalls: [{ name: 'skill_manage', arguments: { action: 'create', name: 'deploy-app', content: '---\nname: deploy-app\ndescription: Deploys the app.\n---\nRun make ship.\n' } }] },
      ...turnScript({ probes: 8, final: 'saved it myself' }),
    ];
    const { reviews } = scriptFake({ h, main: [...managed, ...turnScript({ probes: 9, final: 'plain work' })], review: () => ({ text: 'nothing to save' }) });
    await say(h, 'make a skill');
    await settle();
    assert.equal(reviews.length, 0, 'skill_manage in the window: no review');
    await say(h, 'now plain work');
    await until({ predicate: () => reviewLines(lines).length === 1, what: 'the review of the second window' });
    assert.equal(reviews.length, 1);
    assert.equal(reviewLines(lines)[0]?.['sessionModelCalls'], 20);
  } finally {
    await h.stop();
  }
});

test('a restart does not reset the count: 7 calls, restart, 4 calls trigger the review', async () => {
  const { h, lines } = await harness();
  try {
    const { reviews } = scriptFake({
      h,
      main: [...turnScript({ probes: 6, final: 'before restart' }), ...turnScript({ probes: 3, final: 'after restart' })],
      review: () => ({ text: 'nothing to save' }),
    });
    await say(h, 'part one');
    await h.restart();
    await h.adapter.ready();
    assert.equal(reviews.length, 0);
    await say(h, 'part two');
    await until({ predicate: () => reviewLines(lines).length === 1, what: 'the review after the restart' });
    assert.equal(reviews.length, 1);
    assert.equal(reviewLines(lines)[0]?.['sessionModelCalls'], 11);
  } finally {
    await h.stop();
  }
});

test('an error turn starts no review even when its stored calls crossed the interval', async () => {
  const { h, lines } = await harness();
  try {
    const { reviews } = scriptFake({
      h,
      main: [...turnScript({ probes: 10, final: 'unused' }).slice(0, 10), { status: 400, errorMessage: 'bad request' }],
      review: () => ({ text: 'nothing to save' }),
    });
    await say(h, 'long job that fails');
    await settle();
    const store = h.readStore();
    try {
      const session = store.listSessions({ limit: 1 })[0];
      assert.ok(session);
      assert.equal(store.sessionUsage({ sessionId: session.id }).calls, 10, 'ten calls were stored');
    } finally {
      store.close();
    }
    assert.equal(reviews.length, 0);
    assert.equal(reviewLines(lines).length, 0);
  } finally {
    await h.stop();
  }
});

test('the review\'s skill_manage create lands on disk with source_session', async () => {
  const { h, lines } = await harness();
  try {
    const content = '---\nname: ship-release\ndescription: Ship a release with make ship after make deploy failed.\n---\n\n1. Run `make ship` (not `make deploy`).\n';
    const { reviews } = scriptFake({
      h,
      main: turnScript({ probes: 9, final: 'shipped' }),
      review: (_req, index) => (index === 0 ? { toolCalls: [{ name: 'skill_manage', arguments: { action: 'create', name: 'ship-release', content } }] } : { text: 'saved skill ship-release' }),
    });
    await say(h, 'ship it');
    await until({ predicate: () => reviewLines(lines).length === 1, what: 'the review log line' });
    assert.equal(reviews.length, 2);
    assert.equal(reviewLines(lines)[0]?.['result'], 'saved skill: ship-release');
    const store = h.readStore();
    let sessionId = '';
    try {
      sessionId = store.listSessions({ limit: 1 })[0]?.id ?? '';
    } finally {
      store.close();
    }
    const file = path.join(h.profile.skillsDir, 'ship-release', 'SKILL.md');
    const text = readFileSync(file, 'utf8');
    assert.match(text, /make ship/);
    assert.match(text, new RegExp(`source_session:\\s*['"]?${sessionId}`));
  } finally {
    await h.stop();
  }
});

test('/status leaves a running review alone; /new aborts it; stopping the gateway aborts the next one', async () => {
  const { h, lines } = await harness({ config: { auxiliary: { model: { name: 'aux-model' } } } });
  try {
    const { reviews } = scriptFake({
      h,
      main: [...turnScript({ probes: 9, final: 'first window done' }), ...turnScript({ probes: 9, final: 'second window done' })],
      review: () => ({ hangAfterChunks: 0 }),
    });
    await say(h, 'long job');
    await until({ predicate: () => reviews.length === 1, what: 'the review request' });
    // The review runs on auxiliary.model, not the main model.
    assert.equal(reviews[0]?.req.body.model, 'aux-model');
    await say(h, '/status');
    await settle();
    assert.notEqual(reviews[0]?.req.cut, true, '/status does not stop the review');
    await say(h, '/new');
    await until({ predicate: () => reviews[0]?.req.cut === true, what: 'the review request to be cut by /new' });
    await say(h, 'another long job');
    await until({ predicate: () => reviews.length === 2, what: 'the second review request' });
    const stopStarted = Date.now();
    await h.runner.stop();
    assert.ok(Date.now() - stopStarted < 2000, 'stop did not wait for the hanging review');
    await until({ predicate: () => reviews[1]?.req.cut === true, what: 'the review request to be cut by stop' });
    const results = reviewLines(lines).map((l) => l['result']);
    assert.deepEqual(results, ['aborted (new_message)', 'aborted (shutdown)']);
  } finally {
    await h.stop();
  }
});

test('/resume aborts a running review of the conversation being left, as /new does', async () => {
  const { h, lines } = await harness();
  try {
    const { reviews } = scriptFake({ h, main: [{ text: 'earlier answer' }, ...turnScript({ probes: 10, final: 'long job done' })], review: () => ({ hangAfterChunks: 0 }) });
    await say(h, 'an earlier conversation');
    await say(h, '/new');
    await say(h, 'long job');
    await until({ predicate: () => reviews.length === 1, what: 'the review request' });
    await say(h, '/resume 2');
    assert.match(h.adapter.shown().at(-1)?.text ?? '', /^Resumed conversation/);
    await until({ predicate: () => reviews[0]?.req.cut === true, what: 'the review request to be cut by /resume' });
    await until({ predicate: () => reviewLines(lines).length === 1, what: 'the review log line' });
    assert.equal(reviewLines(lines)[0]?.['result'], 'aborted (new_message)');
  } finally {
    await h.stop();
  }
});

test('no review in a group session: other people\'s words never become the owner\'s memory or skills', async () => {
  const { h, lines } = await harness({ config: { memory: { review_interval: 1 } } });
  try {
    const { reviews } = scriptFake({ h, main: turnScript({ probes: 10, final: 'group done' }), review: () => ({ text: 'nothing to save' }) });
    await h.adapter.inject({ text: 'long job for the group', kind: 'group', chatId: 'group-1', senderId: 'someone' });
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown({ chatId: 'group-1' }).at(-1)?.text, 'group done');
    await settle();
    assert.equal(reviews.length, 0, '11 calls and a user turn in a group: no review');
    assert.equal(reviewLines(lines).length, 0);
  } finally {
    await h.stop();
  }
});

test('the memory review follows memory.*_enabled: USER.md off → only the notes target; both off → no memory review', async () => {
  const userOff = await harness({ config: { memory: { review_interval: 1, user_profile_enabled: false }, skills: { review_interval: 1000 } } });
  try {
    const { reviews } = scriptFake({ h: userOff.h, main: [{ text: 'one' }], review: () => ({ text: 'nothing to save' }) });
    await say(userOff.h, 'first');
    await until({ predicate: () => reviewLines(userOff.lines).length === 1, what: 'the memory review' });
    const instruction = String(reviews[0]?.req.body.messages?.[0]?.['content']);
    assert.match(instruction, /target memory/);
    assert.doesNotMatch(instruction, /target user/);
  } finally {
    await userOff.h.stop();
  }
  const bothOff = await harness({ config: { memory: { review_interval: 1, user_profile_enabled: false, memory_enabled: false }, skills: { review_interval: 1000 } } });
  try {
    const { reviews } = scriptFake({ h: bothOff.h, main: [{ text: 'one' }], review: () => ({ text: 'nothing to save' }) });
    await say(bothOff.h, 'first');
    await settle();
    assert.equal(reviews.length, 0);
    assert.equal(reviewLines(bothOff.lines).length, 0);
  } finally {
    await bothOff.h.stop();
  }
});

test('a review that keeps calling tools stops at 8 model calls', async () => {
  const { h, lines } = await harness();
  try {
    const { reviews } = scriptFake({ h, main: turnScript({ probes: 9, final: 'done' }), review: () => ({ toolCalls: [{ name: 'skills_list', arguments: {} }] }) });
    await say(h, 'long job');
    await until({ predicate: () => reviewLines(lines).length === 1, what: 'the review log line' });
    assert.equal(reviews.length, 8);
    assert.equal(reviewLines(lines)[0]?.['reviewModelCalls'], 8);
  } finally {
    await h.stop();
  }
});

test('a review stopped by a new message after it wrote a skill says so in its log line', async () => {
  const { h, lines } = await harness();
  try {
    const content = '---\nname: fix-build\ndescription: Fix the build when make fails on a stale cache.\n---\n\n1. Run `make clean` then `make`.\n';
    const { reviews } = scriptFake({
      h,
      main: [...turnScript({ probes: 9, final: 'built' }), { text: 'quick answer' }],
      review: (_req, index) => (index === 0 ? { toolCalls: [{ name: 'skill_manage', arguments: { action: 'create', name: 'fix-build', content } }] } : { hangAfterChunks: 0 }),
    });
    await say(h, 'build it');
    await until({ predicate: () => reviews.length === 2, what: 'the review\'s second request' });
    await say(h, 'quick question');
    await until({ predicate: () => reviewLines(lines).length === 1, what: 'the review log line' });
    assert.equal(reviewLines(lines)[0]?.['result'], 'aborted (new_message) after saved skill: fix-build');
  } finally {
    await h.stop();
  }
});
