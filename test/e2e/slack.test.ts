import assert from 'node:assert/strict';
import { test } from 'node:test';
import { thinkingReaction } from '../../src/core/platform.js';
import { FakeSlack, signedEventRequest } from '../fakes/slack/index.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { slackAdapter, slackTokens } from '../helpers/slack.js';

const owner = 'U0OWNER';

async function start(params: { overrides?: Record<string, unknown>; withHttp?: boolean } = {}): Promise<{ h: Harness; fake: FakeSlack }> {
  const fake = new FakeSlack({ ...slackTokens });
  await fake.start();
  const h = await startHarness({
    withHttp: params.withHttp === true,
    config: { stream: { edit_interval: '1s', typing_interval: '300ms' } },
    adapters: ({ profile, clock, logger }) => [
      {
        adapter: slackAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [owner], ...params.overrides } }),
        allow: [owner],
        unauthorized: 'ignore',
        mergeWindowMs: 200,
        reactions: thinkingReaction,
      },
    ],
  });
  return { h, fake };
}

test('slack channel: ignored without a mention; with one, answered in a thread that then continues without a mention', { timeout: 30_000 }, async () => {
  const { h, fake } = await start();
  try {
    h.fake.setResponder(() => ({ text: 'in the thread' }));
    await fake.deliverEvent({ event: fake.userMessage({ channel: 'C0GENERAL', channelType: 'channel', user: owner, text: 'just talking' }) });
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(h.fake.requests.length, 0);
    const asked = fake.userMessage({ channel: 'C0GENERAL', channelType: 'channel', user: owner, text: '<@U0BOT> what is up?' });
    await fake.deliverEvent({ event: asked });
    await fake.waitFor({ predicate: () => fake.messages('C0GENERAL').some((m) => m.text === 'in the thread') });
    const reply = fake.messages('C0GENERAL').find((m) => m.text === 'in the thread');
    assert.equal(reply?.thread_ts, asked['ts']);
    const userText = (h.fake.requests[0]?.body.messages ?? []).filter((m) => m['role'] === 'user').at(-1)?.['content'];
    assert.equal(userText, 'what is up?', 'the mention is stripped');
    // Later messages in that thread need no mention.
    await fake.deliverEvent({ event: fake.userMessage({ channel: 'C0GENERAL', channelType: 'channel', user: owner, text: 'and then?', threadTs: String(asked['ts']) }) });
    await fake.waitFor({ predicate: () => fake.messages('C0GENERAL').filter((m) => m.text === 'in the thread').length === 2 });
    await h.runner.waitIdle();
    // The thinking status was set in the thread and cleared after.
    const statuses = fake.threadStatuses({ channel: 'C0GENERAL', threadTs: String(asked['ts']) });
    assert.ok(statuses.includes('is thinking…'));
    assert.equal(statuses.at(-1), '');
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('slack: Markdown becomes mrkdwn; a 429 on chat.update is waited out without a duplicate', { timeout: 30_000 }, async () => {
  const { h, fake } = await start();
  try {
    const words = Array.from({ length: 20 }, (_, i) => `w${i}`);
    h.fake.enqueue({ chunks: ['**Bold** ', ...words.map((w) => `${w} `)], chunkDelayMs: 80 });
    await fake.deliverEvent({ event: fake.userMessage({ channel: 'D0OWNER', channelType: 'im', user: owner, text: 'go' }) });
    await fake.waitFor({ predicate: () => fake.messages('D0OWNER').length === 1 });
    fake.failNext({ method: 'chat.update', status: 429, retryAfter: 1 });
    const final = `*Bold* ${words.join(' ')}`;
    await fake.waitFor({ predicate: () => (fake.messages('D0OWNER')[0]?.text ?? '').replace(/\u200b/g, '') === final, timeoutMs: 20_000 });
    await h.runner.waitIdle();
    assert.equal(fake.messages('D0OWNER').length, 1);
    assert.ok((fake.messages('D0OWNER')[0]?.edits ?? 0) >= 1, 'the reply was streamed by edits');
    const ops = [...fake.callsTo('chat.postMessage'), ...fake.callsTo('chat.update')].sort((a, b) => a.at - b.at);
    for (let i = 1; i < ops.length; i++) assert.ok((ops[i]?.at ?? 0) - (ops[i - 1]?.at ?? 0) >= 990, 'two calls within a second');
    const updates = fake.callsTo('chat.update');
    const refused = updates.find((c) => c.status === 429);
    assert.ok(refused, 'the 429 happened');
    const next = updates.find((c) => c.at > refused.at);
    assert.ok(next && next.at - refused.at >= 1000, 'no call before Retry-After');
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('slack Socket Mode: a silent connection is replaced and reported; answers keep coming', { timeout: 40_000 }, async () => {
  const { h, fake } = await start({ overrides: { liveness_timeout: '1s' } });
  try {
    await fake.waitFor({ predicate: () => fake.connections === 1 });
    const opens = fake.callsTo('apps.connections.open').length;
    fake.goSilent();
    await fake.waitFor({ predicate: () => fake.callsTo('apps.connections.open').length > opens, timeoutMs: 25_000 });
    fake.speak();
    h.fake.setResponder(() => ({ text: 'back' }));
    await fake.deliverEvent({ event: fake.userMessage({ channel: 'D0OWNER', channelType: 'im', user: owner, text: 'still there?' }), timeoutMs: 15_000 });
    await fake.waitFor({ predicate: () => fake.messages('D0OWNER').some((m) => m.text === 'back'), timeoutMs: 15_000 });
    assert.equal(h.runner.health().adapters.find((a) => a.name === 'slack')?.state, 'connected');
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('slack Events API over HTTP: a wrong signature gets 401; a signed event is answered once even when retried', { timeout: 30_000 }, async () => {
  const { h, fake } = await start({ withHttp: true, overrides: { mode: 'http' } });
  try {
    const address = h.runner.httpAddress;
    assert.ok(address);
    const url = `http://127.0.0.1:${address.port}/slack/events`;
    const event = fake.userMessage({ channel: 'D0OWNER', channelType: 'im', user: owner, text: 'over http' });
    const signed = fake.signedEvent({ event, eventId: 'EvHTTP1' });
    const forged = fake.signedEvent({ event, eventId: 'EvHTTP1', secret: 'not-the-secret' });
    assert.equal((await fetch(url, { method: 'POST', headers: forged.headers, body: forged.body })).status, 401);
    h.fake.enqueue({ text: 'got it over http' });
    assert.equal((await fetch(url, { method: 'POST', headers: signed.headers, body: signed.body })).status, 200);
    const retry = fake.signedEvent({ event, eventId: 'EvHTTP1', retryNum: 1 });
    assert.equal((await fetch(url, { method: 'POST', headers: retry.headers, body: retry.body })).status, 200);
    await fake.waitFor({ predicate: () => fake.messages('D0OWNER').some((m) => m.text === 'got it over http') });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 1);
    const challenge = signedEventRequest({ body: JSON.stringify({ type: 'url_verification', challenge: 'abc123' }), secret: slackTokens.signingSecret });
    const answer = await fetch(url, { method: 'POST', headers: challenge.headers, body: challenge.body });
    assert.deepEqual(await answer.json(), { challenge: 'abc123' });
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('slack DM: an 👀 reaction shows the agent is thinking and is always taken off, also when the model fails', { timeout: 20_000 }, async () => {
  const { h, fake } = await start();
  try {
    h.fake.enqueue({ chunks: ['slow ', 'answer'], chunkDelayMs: 400 }, { status: 401, errorMessage: 'bad key' });
    const first = fake.userMessage({ channel: 'D0OWNER', channelType: 'im', user: owner, text: 'one' });
    await fake.deliverEvent({ event: first });
    const ts = String(first['ts']);
    await fake.waitFor({ predicate: () => fake.reactions({ channel: 'D0OWNER', ts }).includes('eyes') });
    await fake.waitFor({ predicate: () => fake.messages('D0OWNER').some((m) => m.text === 'slow answer') });
    await h.runner.waitIdle();
    assert.deepEqual(fake.reactions({ channel: 'D0OWNER', ts }), []);
    const second = fake.userMessage({ channel: 'D0OWNER', channelType: 'im', user: owner, text: 'two' });
    await fake.deliverEvent({ event: second });
    await fake.waitFor({ predicate: () => fake.messages('D0OWNER').length === 2 });
    await h.runner.waitIdle();
    assert.deepEqual(fake.reactions({ channel: 'D0OWNER', ts: String(second['ts']) }), [], 'cleared after the error too');
    assert.equal(fake.callsTo('reactions.remove').length, 2);
  } finally {
    await h.stop();
    await fake.close();
  }
});
