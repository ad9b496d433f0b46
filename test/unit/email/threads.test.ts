import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { idList, trimReferences, maxReferences } from '../../../adapters/email/message-id.js';
import { composeMail, planOutbound } from '../../../adapters/email/outbound.js';
import { resolveRoot, ThreadIndex, type KnownMail } from '../../../adapters/email/threads.js';
import { memoryStorage } from './memory-storage.js';

function mail(params: Partial<KnownMail> & { id: string }): KnownMail {
  return { root: params.id, subject: 'Topic', references: [], peer: 'alice@example.org', ...params };
}

describe('thread resolution', () => {
  test('a new mail is its own root; a reply joins the root of what it answers', () => {
    const index = new ThreadIndex({ storage: memoryStorage() });
    const rootOf = (id: string): string | undefined => index.rootOf({ id });
    assert.equal(resolveRoot({ id: 'a@x', inReplyTo: [], references: [], rootOf }), 'a@x');
    index.remember({ mail: mail({ id: 'a@x' }) });
    index.remember({ mail: mail({ id: 'bot1@bot', root: 'a@x', references: ['a@x'] }) });
    // The person answers the bot's reply: In-Reply-To is the bot's mail, whose root is the first mail.
    assert.equal(resolveRoot({ id: 'b@x', inReplyTo: ['bot1@bot'], references: ['a@x', 'bot1@bot'], rootOf }), 'a@x');
    // Only References known (In-Reply-To missing or unknown): the newest known one decides.
    assert.equal(resolveRoot({ id: 'c@x', inReplyTo: ['unknown@x'], references: ['zzz@x', 'bot1@bot'], rootOf }), 'a@x');
  });

  test('an answer to mail never seen threads by its References root, else by In-Reply-To', () => {
    const rootOf = (): string | undefined => undefined;
    assert.equal(resolveRoot({ id: 'c@x', inReplyTo: ['p@x'], references: ['r@x', 'p@x'], rootOf }), 'r@x');
    assert.equal(resolveRoot({ id: 'c@x', inReplyTo: ['p@x'], references: [], rootOf }), 'p@x');
  });

  test('the index is bounded (least recently used forgotten) and survives a restart through storage', () => {
    const storage = memoryStorage();
    const index = new ThreadIndex({ storage, max: 3 });
    for (const id of ['1@x', '2@x', '3@x']) index.remember({ mail: mail({ id }) });
    index.remember({ mail: mail({ id: '1@x' }) }); // used again: now the newest
    index.remember({ mail: mail({ id: '4@x' }) });
    assert.equal(index.get({ id: '2@x' }), undefined);
    const reloaded = new ThreadIndex({ storage, max: 3 });
    assert.deepEqual(['1@x', '3@x', '4@x'].map((id) => reloaded.get({ id })?.id), ['1@x', '3@x', '4@x']);
    let complained = false;
    storage.set({ name: 'threads', value: '{broken' });
    assert.equal(new ThreadIndex({ storage, onCorrupt: () => (complained = true) }).get({ id: '1@x' }), undefined);
    assert.ok(complained);
  });

  test('latestIn gives the newest mail of a thread', () => {
    const index = new ThreadIndex({ storage: memoryStorage() });
    index.remember({ mail: mail({ id: 'a@x' }) });
    index.remember({ mail: mail({ id: 'b@bot', root: 'a@x' }) });
    index.remember({ mail: mail({ id: 'other@x' }) });
    assert.equal(index.latestIn({ root: 'a@x' })?.id, 'b@bot');
  });
});

describe('reply headers', () => {
  test('a reply answers the original: In-Reply-To, References = its References + its id, one "Re:"', () => {
    const index = new ThreadIndex({ storage: memoryStorage() });
    index.remember({ mail: mail({ id: 'q@x', root: 'r@x', subject: 'RE: Plans', references: ['r@x', 'p@x'] }) });
    const plan = planOutbound({ chat: { id: 'alice@example.org', kind: 'dm', threadId: 'r@x' }, replyToId: 'q@x', index, newSubject: 'Hi' });
    assert.equal(plan.inReplyTo, 'q@x');
    assert.deepEqual(plan.references, ['r@x', 'p@x', 'q@x']);
    assert.equal(plan.subject, 'Re: Plans');
    assert.equal(plan.root, 'r@x');
    const composed = composeMail({ plan, messageId: 'me@bot', from: { address: 'bot@example.com', name: 'Bot' }, text: 'Hi <b>', attachments: [{ path: '/tmp/x/report.pdf', kind: 'document' }] });
    assert.equal(composed.inReplyTo, '<q@x>');
    assert.deepEqual(composed.references, ['<r@x>', '<p@x>', '<q@x>']);
    assert.equal(composed.messageId, '<me@bot>');
    assert.equal(composed.text, 'Hi <b>');
    assert.match(String(composed.html), /Hi &lt;b&gt;/);
    assert.deepEqual(composed.attachments, [{ filename: 'report.pdf', path: '/tmp/x/report.pdf' }]);
    assert.deepEqual(composed.headers, { 'Auto-Submitted': 'auto-replied', 'X-Auto-Response-Suppress': 'All' });
  });

  test('a follow-up without replyToId answers the newest mail of the thread; no thread means a new conversation', () => {
    const index = new ThreadIndex({ storage: memoryStorage() });
    index.remember({ mail: mail({ id: 'a@x' }) });
    index.remember({ mail: mail({ id: 'bot@bot', root: 'a@x', references: ['a@x'] }) });
    const follow = planOutbound({ chat: { id: 'alice@example.org', kind: 'dm', threadId: 'a@x' }, index, newSubject: 'Hi' });
    assert.equal(follow.inReplyTo, 'bot@bot');
    const fresh = planOutbound({ chat: { id: 'alice@example.org', kind: 'dm' }, index, newSubject: 'Message from Bot' });
    assert.deepEqual(fresh, { to: 'alice@example.org', subject: 'Message from Bot', references: [] });
    const lost = planOutbound({ chat: { id: 'alice@example.org', kind: 'dm', threadId: 'gone@x' }, replyToId: 'gone2@x', index, newSubject: 'x' });
    assert.equal(lost.inReplyTo, 'gone2@x');
    assert.deepEqual(lost.references, ['gone@x', 'gone2@x']);
  });

  test('the mail goes to the chat\'s person, never to someone else whose mail landed in the thread', () => {
    const index = new ThreadIndex({ storage: memoryStorage() });
    index.remember({ mail: mail({ id: 'a@x' }) });
    index.remember({ mail: mail({ id: 'bot@bot', root: 'a@x', references: ['a@x'] }) });
    // A Cc'd colleague answers all: their mail joins the thread (it is remembered before authorization).
    index.remember({ mail: mail({ id: 'cc@y', root: 'a@x', references: ['a@x', 'bot@bot'], peer: 'colleague@example.net' }) });
    const chat = { id: 'alice@example.org', kind: 'dm' as const, threadId: 'a@x' };
    const follow = planOutbound({ chat, index, newSubject: 'Hi' });
    assert.deepEqual([follow.to, follow.inReplyTo], ['alice@example.org', 'bot@bot']);
    // A stranger's mail re-using the id of Alice's mail overwrites its entry: the reply still goes to Alice.
    index.remember({ mail: mail({ id: 'a@x', peer: 'stranger@example.net' }) });
    const reply = planOutbound({ chat, replyToId: 'a@x', index, newSubject: 'Hi' });
    assert.equal(reply.to, 'alice@example.org');
    assert.equal(reply.answers, undefined, 'the stranger\'s mail is not flagged or moved');
  });

  test('ids are read with or without brackets; long References keep the root and the newest', () => {
    assert.deepEqual(idList({ value: '<a@x> <b@x>\r\n <c@x>' }), ['a@x', 'b@x', 'c@x']);
    assert.deepEqual(idList({ value: ['<a@x>', 'b@x'] }), ['a@x', 'b@x']);
    const ids = Array.from({ length: 50 }, (_, i) => `${i}@x`);
    const trimmed = trimReferences({ ids });
    assert.equal(trimmed.length, maxReferences);
    assert.equal(trimmed[0], '0@x');
    assert.equal(trimmed.at(-1), '49@x');
  });
});
