import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { telegramAdapter, testToken } from '../helpers/telegram.js';
import { tinyPng } from '../helpers/images.js';
import { contentImages, contentText, lastUserContent } from '../helpers/request-roles.js';

const owner = { id: 1001, first_name: 'Owner', username: 'owner' };
const dm = { id: 1001, type: 'private' as const };

/** A gateway on Telegram's fake with a long merge window, so waiting it out would show. */
async function start(params: { mergeWindowMs: number }): Promise<{ h: Harness; fake: FakeTelegram }> {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  const h = await startHarness({
    adapters: ({ profile, clock, logger }) => [
      { adapter: telegramAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: ['1001'] } }), allow: ['1001'], mergeWindowMs: params.mergeWindowMs },
    ],
  });
  return { h, fake };
}

test('telegram: a lone short message shows typing and reaches the model without waiting out a 10 s merge window', { timeout: 20_000 }, async () => {
  const { h, fake } = await start({ mergeWindowMs: 10_000 });
  try {
    h.fake.setResponder(() => ({ text: 'hi back' }));
    const pushedAt = Date.now();
    fake.pushMessage({ chat: dm, from: owner, text: 'hi' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === 'hi back'), timeoutMs: 8000 });
    const typing = fake.calls.find((c) => c.method === 'sendChatAction');
    const request = h.fake.requests[0];
    assert.ok(typing && request, 'typing was shown and the model asked');
    // Two HTTP calls race to two fakes; under load the typing call may land a little after the model's request.
    assert.ok(typing.at <= request.time + 100, `typing came ${typing.at - request.time} ms after the model request, not with it`);
    assert.ok(request.time - pushedAt < 5000, `the model was asked ${request.time - pushedAt} ms after the message, not after the window`);
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('telegram: an album of three parts and a text split near the limit each stay one turn; typing starts before the window ends', { timeout: 30_000 }, async () => {
  const { h, fake } = await start({ mergeWindowMs: 1500 });
  try {
    h.fake.setResponder(() => ({ text: 'got it' }));
    const photos = [0, 1, 2].map(() => fake.addFile({ bytes: tinyPng, mimeType: 'image/png' }));
    const albumAt = Date.now();
    for (const [i, photo] of photos.entries()) fake.pushMessage({ chat: dm, from: owner, ...(i === 0 ? { caption: 'three views' } : {}), photo, media_group_id: 'g1' });
    await fake.waitFor({ predicate: (f) => f.calls.some((c) => c.method === 'sendChatAction'), timeoutMs: 5000 });
    const firstTyping = fake.calls.find((c) => c.method === 'sendChatAction');
    assert.ok(firstTyping && firstTyping.at - albumAt < 1500, 'typing before the merge window is over');
    assert.equal(h.fake.requests.length, 0, 'the album waits for its parts');
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).filter((m) => m.shown === 'got it').length === 1, timeoutMs: 10_000 });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 1, 'one turn for the album');
    const albumText = contentText(lastUserContent(h.fake.requests[0]));
    assert.equal((albumText.match(/\[Attached file:/g) ?? []).length, 3, albumText);
    assert.equal(contentImages(lastUserContent(h.fake.requests[0])).length, 3, 'the model sees the three photos');

    // A 5,000-character paste the client split: 4,096 characters, then the rest.
    const paste = 'word '.repeat(1000);
    fake.pushMessage({ chat: dm, from: owner, text: paste.slice(0, 4096) });
    fake.pushMessage({ chat: dm, from: owner, text: paste.slice(4096) });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).filter((m) => m.shown === 'got it').length === 2, timeoutMs: 10_000 });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 2, 'one turn for both parts of the split text');
    const pasted = String((h.fake.requests[1]?.body.messages ?? []).filter((m) => m['role'] === 'user').at(-1)?.['content']);
    assert.ok(pasted.includes(paste.slice(0, 4096).trim()) && pasted.includes(paste.slice(4096).trim()), 'both parts in one user message');
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('telegram: a message following another within the window joins it: one answer, whose model request has both (the first was not held)', { timeout: 30_000 }, async () => {
  const { h, fake } = await start({ mergeWindowMs: 1000 });
  try {
    // A slow first token: the first message's turn is still running when the second arrives.
    h.fake.setResponder(() => ({ chunks: ['answer ', 'here'], chunkDelayMs: 300 }));
    fake.pushMessage({ chat: dm, from: owner, text: 'first' });
    await h.fake.waitForRequests(1);
    const secondAt = Date.now();
    fake.pushMessage({ chat: dm, from: owner, text: 'second' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === 'answer here'), timeoutMs: 10_000 });
    await h.runner.waitIdle();
    assert.deepEqual(fake.chatMessages(dm.id).map((m) => m.shown), ['answer here'], 'one answer, no stopped partial beside it');
    const last = h.fake.requests.at(-1);
    assert.ok(last);
    const users = (last.body.messages ?? []).filter((m) => m['role'] === 'user').map((m) => String(m['content']));
    assert.deepEqual(users.slice(-2), ['first', 'second'], 'the answer saw both messages');
    assert.ok(last.time - secondAt >= 900, `the follower waited out the window (${last.time - secondAt} ms)`);
  } finally {
    await h.stop();
    await fake.close();
  }
});
