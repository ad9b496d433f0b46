import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import type { SlackAdapter } from '../../adapters/slack/adapter.js';
import { toMrkdwn } from '../../adapters/slack/outbound.js';
import { systemClock } from '../../src/core/clock.js';
import { choices, recordingLogger, runAdapter, type RunningAdapter, serveRoutes } from '../helpers/buttons.js';
import { slackAdapter, slackTokens } from '../helpers/slack.js';
import { FakeSlack } from '../fakes/slack/index.js';

const owner = 'U0OWNER';
const member = 'U0MEMBER';
const dm = { id: 'D0OWNER', kind: 'dm' as const };
const channel = { id: 'C0TEAM', kind: 'channel' as const, threadId: '1700000000.000100' };

interface SlackRun {
  fake: FakeSlack;
  adapter: SlackAdapter;
  running: RunningAdapter;
  base: string | undefined;
  lines: Record<string, unknown>[];
}

async function withSlack(run: (params: SlackRun) => Promise<void>, options: { http?: boolean; mayTalk?: (sender: { id: string }) => boolean } = {}): Promise<void> {
  const fake = new FakeSlack({ ...slackTokens });
  await fake.start();
  const cacheDir = mkdtempSync(path.join(os.tmpdir(), 'hermes-slack-buttons-'));
  const { logger, lines } = recordingLogger();
  const adapter = slackAdapter({ fake, cacheDir, clock: systemClock, logger, ...(options.http === true ? { overrides: { mode: 'http' } } : {}) });
  const server = options.http === true ? await serveRoutes({ adapter, logger: pino({ level: 'silent' }) }) : undefined;
  const running = runAdapter({ adapter, ...(options.mayTalk ? { mayTalk: options.mayTalk } : {}) });
  try {
    await running.connected();
    await run({ fake, adapter, running, base: server?.base, lines });
  } finally {
    await running.stop();
    await server?.close();
    await fake.close();
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

test('slack buttons: four choices are a section with the text and two actions blocks of two buttons (action_id and value = choice id), text kept as the fallback', { timeout: 20_000 }, async () => {
  await withSlack(async ({ fake, adapter }) => {
    const { messageId } = await adapter.send({ chat: dm, text: 'Run **rm -rf build**?', choices });
    const message = fake.messages(dm.id)[0];
    const mrkdwn = await toMrkdwn({ markdown: 'Run **rm -rf build**?' });
    assert.match(mrkdwn, /\*rm -rf build\*/);
    assert.equal(message?.text, mrkdwn, 'the fallback text');
    assert.deepEqual(message?.blocks?.[0], { type: 'section', text: { type: 'mrkdwn', text: mrkdwn } });
    const rows = fake.buttons({ channel: dm.id, ts: messageId });
    assert.deepEqual(rows.map((row) => row.map((b) => [b.text, b.actionId, b.value])), [
      [['Allow once', 'appr:k1:once', 'appr:k1:once'], ['Allow for this session', 'appr:k1:session', 'appr:k1:session']],
      [['Always allow', 'appr:k1:always', 'appr:k1:always'], ['Deny', 'appr:k1:deny', 'appr:k1:deny']],
    ]);
    const plain = await adapter.send({ chat: dm, text: 'no buttons' });
    assert.deepEqual(fake.buttons({ channel: dm.id, ts: plain.messageId }), []);
    assert.equal(fake.callsTo('chat.postMessage').at(-1)?.params['blocks'], undefined, 'an ordinary post carries no blocks');
  });
});

test('slack buttons: an edit with choices keeps them, an edit without choices removes them (blocks: []), a streamed edit sends text only', { timeout: 20_000 }, async () => {
  await withSlack(async ({ fake, adapter }) => {
    const { messageId } = await adapter.send({ chat: dm, text: 'Run it?', choices });
    await adapter.edit({ chat: dm, messageId, text: 'Run it? (waiting)', choices });
    assert.equal(fake.buttons({ channel: dm.id, ts: messageId }).flat().length, 4, 'kept');
    await adapter.edit({ chat: dm, messageId, text: 'Denied.' });
    assert.deepEqual(fake.buttons({ channel: dm.id, ts: messageId }), [], 'removed');
    assert.equal(fake.messages(dm.id)[0]?.text, 'Denied.');
    const streamed = await adapter.send({ chat: dm, text: 'partial' });
    await adapter.edit({ chat: dm, messageId: streamed.messageId, text: 'partial and more' });
    assert.deepEqual(Object.keys(fake.callsTo('chat.update').at(-1)?.params ?? {}).sort(), ['channel', 'text', 'ts'], 'a streamed edit is as before');
  });
});

test('slack buttons over Socket Mode: a press is acked, reaches choose (presser, chat, message ts, choice), the notice is ephemeral to the presser, retire drops the buttons', { timeout: 20_000 }, async () => {
  await withSlack(async ({ fake, adapter, running }) => {
    const { messageId } = await adapter.send({ chat: channel, text: 'Run it?', choices });
    running.answer = { notice: 'Only the owner can answer this.' };
    let open: () => void = () => undefined;
    running.gate = new Promise<void>((resolve) => { open = resolve; });
    const { ack, envelopeId } = await fake.press({ channel: channel.id, ts: messageId, user: member, label: 'Allow once' });
    assert.equal(ack.envelope_id, envelopeId, 'acknowledged');
    await running.waitPresses({ count: 1 });
    assert.equal(fake.ephemerals.length, 0, 'acked while choose is still deciding');
    open();
    running.gate = undefined;
    assert.deepEqual(running.presses[0], {
      platform: 'slack',
      chat: channel,
      sender: { id: member, name: 'u0member', isBot: false },
      messageId,
      choiceId: 'appr:k1:once',
    });
    await fake.waitFor({ predicate: (f) => f.ephemerals.length === 1 });
    assert.deepEqual(fake.ephemerals.map((e) => [e.channel, e.user, e.text, e.thread_ts]), [[channel.id, member, 'Only the owner can answer this.', channel.threadId]]);
    assert.equal(fake.buttons({ channel: channel.id, ts: messageId }).flat().length, 4, 'not retired');
    running.answer = { notice: 'This question was already answered or has expired.', retire: true };
    await fake.press({ channel: channel.id, ts: messageId, user: owner, label: 'Deny' });
    await fake.waitFor({ predicate: (f) => f.buttons({ channel: channel.id, ts: messageId }).length === 0 });
    assert.equal(running.presses[1]?.choiceId, 'appr:k1:deny');
    const message = fake.messages(channel.id)[0];
    assert.equal(message?.text, 'Run it?', 'retiring keeps the text');
    assert.deepEqual(message?.blocks?.map((b) => (b as { type: string }).type), ['section']);
    assert.equal(running.emitted.length, 0, 'a press never becomes a message');
  }, { mayTalk: (sender) => sender.id === owner });
});

test('slack buttons over HTTP: a signed press → 200 and choose; a forged or unsigned one → 401, one log line, choose not called; a malformed payload → 400', { timeout: 20_000 }, async () => {
  await withSlack(async ({ fake, adapter, running, base, lines }) => {
    assert.ok(base);
    const url = `${base}/slack/events`;
    const { messageId } = await adapter.send({ chat: dm, text: 'Run it?', choices });
    const post = (request: { headers: Record<string, string>; body: string }): Promise<Response> => fetch(url, { method: 'POST', headers: request.headers, body: request.body });
    const forged = fake.signedPress({ channel: dm.id, ts: messageId, user: owner, label: 'Allow once', secret: 'not-the-signing-secret' });
    assert.equal((await post(forged)).status, 401);
    const unsigned = fake.signedPress({ channel: dm.id, ts: messageId, user: owner, label: 'Allow once' });
    assert.equal((await post({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: unsigned.body })).status, 401);
    const signatureLines = lines.filter((l) => l['msg'] === 'Slack event with a bad signature rejected');
    assert.equal(signatureLines.length, 1, 'one log line for the rejected requests (rate-limited)');
    assert.equal((await post(fake.signedPress({ payload: '{not json' }))).status, 400);
    assert.equal((await post(fake.signedPress({ payload: JSON.stringify({ type: 'block_actions', actions: 'x' }) }))).status, 400);
    assert.equal(running.presses.length, 0, 'choose not called for rejected requests');
    running.answer = { notice: 'Allowed once.', retire: true };
    let open: () => void = () => undefined;
    running.gate = new Promise<void>((resolve) => { open = resolve; });
    const signed = await post(fake.signedPress({ channel: dm.id, ts: messageId, user: owner, label: 'Allow once' }));
    assert.equal(signed.status, 200, 'answered while choose is still deciding (Slack wants it within 3 s)');
    await running.waitPresses({ count: 1 });
    assert.equal(fake.ephemerals.length, 0);
    open();
    running.gate = undefined;
    assert.deepEqual(running.presses[0], { platform: 'slack', chat: dm, sender: { id: owner, name: 'u0owner', isBot: false }, messageId, choiceId: 'appr:k1:once' });
    await fake.waitFor({ predicate: (f) => f.ephemerals.some((e) => e.text === 'Allowed once.' && e.user === owner) && f.buttons({ channel: dm.id, ts: messageId }).length === 0 });
    assert.equal(running.emitted.length, 0);
  }, { http: true });
});
