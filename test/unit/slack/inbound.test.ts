import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readSlackEvent, type SlackInboundPolicy } from '../../../adapters/slack/inbound.js';
import { BoundedSet } from '../../../src/util/bounded-set.js';

const policy = (over: Partial<SlackInboundPolicy> = {}): SlackInboundPolicy => ({
  botUserId: 'U0BOT',
  botId: 'B0SELF',
  replyInThread: true,
  strictMention: false,
  allowedBots: [],
  threadsWithBot: new BoundedSet<string>({ max: 10 }),
  ...over,
});

test('own messages and other bots are ignored unless the bot is listed', () => {
  const own = readSlackEvent({ event: { type: 'message', channel: 'D1', channel_type: 'im', user: 'U0BOT', text: 'me', ts: '1.1' }, policy: policy(), now: 0 });
  assert.equal(own.kind, 'skip');
  const self = readSlackEvent({ event: { type: 'message', channel: 'D1', channel_type: 'im', bot_id: 'B0SELF', text: 'me', ts: '1.2' }, policy: policy(), now: 0 });
  assert.equal(self.kind, 'skip');
  const bot = { type: 'message', channel: 'D1', channel_type: 'im', bot_id: 'B0OTHER', text: 'beep', ts: '1.3' };
  assert.equal(readSlackEvent({ event: bot, policy: policy(), now: 0 }).kind, 'skip');
  const listed = readSlackEvent({ event: bot, policy: policy({ allowedBots: ['B0OTHER'] }), now: 0 });
  assert.equal(listed.kind, 'message');
  if (listed.kind === 'message') assert.equal(listed.event.sender.isBot, true);
});

test('strict_mention: a thread the bot was mentioned in still needs a new mention', () => {
  const threads = new BoundedSet<string>({ max: 10 });
  const mention = { type: 'app_mention', channel: 'C1', channel_type: 'channel', user: 'U1', text: '<@U0BOT> hi', ts: '5.0' };
  const follow = { type: 'message', channel: 'C1', channel_type: 'channel', user: 'U1', text: 'and?', ts: '6.0', thread_ts: '5.0' };
  assert.equal(readSlackEvent({ event: mention, policy: policy({ threadsWithBot: threads, strictMention: true }), now: 0 }).kind, 'message');
  assert.equal(readSlackEvent({ event: follow, policy: policy({ threadsWithBot: threads, strictMention: true }), now: 0 }).kind, 'skip');
  assert.equal(readSlackEvent({ event: follow, policy: policy({ threadsWithBot: threads }), now: 0 }).kind, 'message');
});

test('a mention arrives as message and app_mention with one message id; edits and deletions are not turns', () => {
  const a = readSlackEvent({ event: { type: 'message', channel: 'C1', channel_type: 'channel', user: 'U1', text: '<@U0BOT> x', ts: '7.0' }, policy: policy(), now: 0 });
  const b = readSlackEvent({ event: { type: 'app_mention', channel: 'C1', user: 'U1', text: '<@U0BOT> x', ts: '7.0' }, policy: policy(), now: 0 });
  assert.ok(a.kind === 'message' && b.kind === 'message');
  if (a.kind === 'message' && b.kind === 'message') {
    assert.equal(a.event.messageId, b.event.messageId);
    assert.equal(a.event.text, 'x');
    assert.equal(a.event.chat.threadId, '7.0', 'answered in a thread under the message');
  }
  assert.equal(readSlackEvent({ event: { type: 'message', subtype: 'message_changed', channel: 'D1', channel_type: 'im', ts: '8.0' }, policy: policy(), now: 0 }).kind, 'skip');
});
