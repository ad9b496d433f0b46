import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { SlackAdapter } from '../../adapters/slack/adapter.js';
import type { Clock } from '../../src/core/clock.js';
import { FakeSlack } from '../fakes/slack/index.js';
import type { BotMessage } from '../fakes/slack/types.js';
import { lastToolResult, scriptCommand } from '../helpers/approvals.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { driveUntil } from '../helpers/jobs.js';
import { slackAdapter, slackTokens } from '../helpers/slack.js';

const owner = 'U0OWNER';
const member = 'U0MEMBER';
const dm = 'D0OWNER';
const team = 'C0TEAM';
const head = /^⚠️ The agent wants to run a dangerous command \(terminal\):\n`rm -rf build`\n• recursive delete \(rm -r\)/;
const deniedResult = /^Not run: the owner denied it \(u0owner pressed Deny or answered \/deny\)\. Do not retry it; ask the owner or choose another way\.$/;

/** A whole gateway (manual approval, the real terminal with its default sandbox) with the real @slack/bolt adapter against a fake Slack whose owner is U0OWNER. */
interface SlackApprovals {
  readonly h: Harness;
  readonly fake: FakeSlack;
  /** workspace/build (made, with a folder in it). */
  readonly build: string;
  /** The owner (or `user`) writes in a DM or a channel: over Socket Mode, or signed over HTTP in http mode. */
  say(params: { text: string; channel?: string; user?: string }): Promise<void>;
  /** The gateway's /slack/events URL (http mode only). */
  readonly url: string;
  close(): Promise<void>;
}

async function start(params: { http?: boolean; clock?: Clock } = {}): Promise<SlackApprovals> {
  const http = params.http === true;
  const fake = new FakeSlack({ ...slackTokens, ...(params.clock ? { clock: params.clock } : {}) });
  await fake.start();
  const h = await startHarness({
    ...(params.clock ? { clock: params.clock } : {}),
    withHttp: http,
    // No background review: its model calls would take the scripted replies.
    config: { skills: { review: false, review_interval: 1000 }, memory: { review_interval: 1000 } },
    adapters: ({ profile, clock, logger }): { adapter: SlackAdapter; allow: string[]; unauthorized: 'ignore'; mergeWindowMs: number }[] => [
      {
        adapter: slackAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [owner], unauthorized: 'ignore', ...(http ? { mode: 'http' } : {}) } }),
        allow: [owner],
        unauthorized: 'ignore',
        mergeWindowMs: 0,
      },
    ],
  });
  const build = path.join(h.profile.workspaceDir, 'build');
  mkdirSync(path.join(build, 'out'), { recursive: true });
  const address = h.runner.httpAddress;
  const url = address ? `http://127.0.0.1:${address.port}/slack/events` : '';
  let n = 0;
  return {
    h,
    fake,
    build,
    url,
    say: async ({ text, channel = dm, user = owner }) => {
      n += 1;
      const event = fake.userMessage({ channel, channelType: channel.startsWith('D') ? 'im' : 'channel', user, text });
      if (!http) {
        await fake.deliverEvent({ event, eventId: `EvAp${n}` });
        return;
      }
      // Slack retries a 503 (the adapter not started yet) like any non-2xx answer; so does this.
      for (let attempt = 0; ; attempt++) {
        const signed = fake.signedEvent({ event, eventId: `EvAp${n}`, ...(attempt > 0 ? { retryNum: attempt } : {}) });
        const res = await fetch(url, { method: 'POST', headers: signed.headers, body: signed.body });
        if (res.status === 503 && attempt < 50) {
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        assert.equal(res.status, 200);
        return;
      }
    },
    close: async () => {
      await h.stop();
      await fake.close();
    },
  };
}

/** The approval questions the bot posted in a channel (as they are now). */
function questions(fake: FakeSlack, channel: string = dm): BotMessage[] {
  return fake.messages(channel).filter((m) => !m.deleted && m.text.startsWith('⚠️ The agent wants to run a dangerous command'));
}

/** Waits for the `n`th question in the channel. */
async function waitQuestion(fake: FakeSlack, n = 1, channel: string = dm): Promise<BotMessage> {
  await fake.waitFor({ predicate: (f) => questions(f, channel).length >= n, timeoutMs: 15_000 });
  const q = questions(fake, channel)[n - 1];
  assert.ok(q, `question ${n}`);
  return q;
}

/** The labels of the buttons a message shows now, row by row. */
function labels(fake: FakeSlack, q: BotMessage, channel: string = dm): string[][] {
  return fake.buttons({ channel, ts: q.ts }).map((row) => row.map((b) => b.text));
}

/** The message as the fake holds it now (after updates). */
function now(fake: FakeSlack, q: BotMessage, channel: string = dm): BotMessage {
  const m = fake.messages(channel).find((x) => x.ts === q.ts);
  assert.ok(m);
  return m;
}

/** Waits until a bot message in the channel shows `text`. */
async function waitShown(fake: FakeSlack, text: string, channel: string = dm): Promise<void> {
  await fake.waitFor({ predicate: (f) => f.messages(channel).some((m) => !m.deleted && m.text === text), timeoutMs: 15_000 });
}

/** The owner presses `label` on `q` (Socket Mode); waits until the bot shows `final` in the channel and the gateway is idle. */
async function ownerPresses(params: { h: Harness; fake: FakeSlack; q: BotMessage; label: string; final: string; channel?: string }): Promise<void> {
  const channel = params.channel ?? dm;
  await params.fake.press({ channel, ts: params.q.ts, user: owner, label: params.label });
  await waitShown(params.fake, params.final, channel);
  await params.h.runner.waitIdle();
}

test('slack (Socket Mode): rm -rf build asks with four Block Kit buttons; the owner presses Deny → acked, the question updated without buttons, not run, the model told', { timeout: 60_000 }, async () => {
  const { h, fake, build, say, close } = await start();
  try {
    scriptCommand(h, 'rm -rf build', 'ok, I left it');
    await say({ text: 'clean up the build' });
    const q = await waitQuestion(fake);
    assert.match(q.text, head);
    assert.deepEqual(labels(fake, q), [['Allow once', 'Allow for this session'], ['Always allow', 'Deny']]);
    assert.ok(fake.buttons({ channel: dm, ts: q.ts }).flat().every((b) => /^ap:[0-9a-f]{12}:(once|session|always|deny)$/.test(b.actionId)));
    assert.equal(h.fake.requests.length, 1);
    const { ack, envelopeId } = await fake.press({ channel: dm, ts: q.ts, user: owner, label: 'Deny' });
    assert.equal(ack.envelope_id, envelopeId, 'the press was not acknowledged');
    await waitShown(fake, 'ok, I left it');
    await h.runner.waitIdle();
    assert.ok(existsSync(build), 'the denied command ran');
    assert.equal(h.fake.requests.length, 2);
    assert.match(lastToolResult(h), deniedResult);
    const edited = now(fake, q);
    assert.match(edited.text, head);
    assert.match(edited.text, /\n\n⛔ Denied by u0owner$/);
    assert.deepEqual(labels(fake, q), [], 'the decided question still has buttons');
    await fake.waitFor({ predicate: (f) => f.ephemerals.some((e) => e.user === owner && e.text === '⛔ Denied by u0owner') });
  } finally {
    await close();
  }
});

test('slack (Socket Mode): Allow once runs rm -rf build (gone, the model sees exit 0); the same command again asks again', { timeout: 60_000 }, async () => {
  const { h, fake, build, say, close } = await start();
  try {
    scriptCommand(h, 'rm -rf build', 'cleaned');
    await say({ text: 'clean up the build' });
    const q = await waitQuestion(fake);
    await ownerPresses({ h, fake, q: q, label: 'Allow once', final: 'cleaned' });
    assert.equal(existsSync(build), false, 'the allowed command did not run');
    assert.equal(lastToolResult(h), '(no output)\n[exit code: 0]');
    assert.match(now(fake, q).text, /\n\n✅ Allowed once by u0owner$/);
    assert.deepEqual(labels(fake, q), []);

    mkdirSync(build);
    scriptCommand(h, 'rm -rf build', 'left it this time');
    await say({ text: 'clean up again' });
    const second = await waitQuestion(fake, 2);
    assert.notEqual(second.ts, q.ts);
    assert.equal(labels(fake, second).flat().length, 4);
    assert.equal(h.fake.requests.length, 3, 'once allowed more than once');
    await ownerPresses({ h, fake, q: second, label: 'Deny', final: 'left it this time' });
    assert.ok(existsSync(build));
  } finally {
    await close();
  }
});

test('slack channel (Socket Mode): a member who is not the owner presses Allow once → an ephemeral notice, nothing runs, the request still waits; the owner then denies', { timeout: 60_000 }, async () => {
  const { h, fake, build, say, close } = await start();
  try {
    scriptCommand(h, 'rm -rf build', 'not done');
    await say({ channel: team, text: '<@U0BOT> clean up the build' });
    const q = await waitQuestion(fake, 1, team);
    const asked = q.text;
    await fake.press({ channel: team, ts: q.ts, user: member, label: 'Allow once' });
    await fake.waitFor({ predicate: (f) => f.ephemerals.some((e) => e.user === member) });
    assert.deepEqual(fake.ephemerals.map((e) => [e.channel, e.user, e.text]), [[team, member, 'Only the owner can answer this.']]);
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(existsSync(build), 'a member\'s press ran the command');
    assert.equal(h.fake.requests.length, 1, 'the request stopped waiting');
    assert.equal(labels(fake, q, team).flat().length, 4, 'the buttons went away');
    assert.equal(now(fake, q, team).text, asked, 'the question was updated');
    await ownerPresses({ h, fake, q: q, label: 'Deny', final: 'not done', channel: team });
    assert.ok(existsSync(build));
    assert.match(lastToolResult(h), deniedResult);
  } finally {
    await close();
  }
});

test('slack (HTTP route): a forged action payload → 401 and nothing changes (still waiting); a signed Deny, then a signed Allow once on the next ask runs it', { timeout: 60_000 }, async () => {
  const { h, fake, build, say, url, close } = await start({ http: true });
  try {
    const post = (request: { headers: Record<string, string>; body: string }): Promise<Response> => fetch(url, { method: 'POST', headers: request.headers, body: request.body });
    scriptCommand(h, 'rm -rf build', 'left it');
    await say({ text: 'clean up the build' });
    const q = await waitQuestion(fake);
    const asked = q.text;
    assert.equal(labels(fake, q).flat().length, 4);
    assert.equal((await post(fake.signedPress({ channel: dm, ts: q.ts, user: owner, label: 'Allow once', secret: 'not-the-signing-secret' }))).status, 401);
    const unsigned = fake.signedPress({ channel: dm, ts: q.ts, user: owner, label: 'Allow once' });
    assert.equal((await post({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: unsigned.body })).status, 401);
    await new Promise((r) => setTimeout(r, 300));
    assert.ok(existsSync(build), 'a forged press ran the command');
    assert.equal(h.fake.requests.length, 1, 'a forged press ended the wait');
    assert.equal(labels(fake, q).flat().length, 4);
    assert.equal(now(fake, q).text, asked);
    assert.equal(fake.ephemerals.length, 0);
    assert.equal((await post(fake.signedPress({ channel: dm, ts: q.ts, user: owner, label: 'Deny' }))).status, 200);
    await waitShown(fake, 'left it');
    await h.runner.waitIdle();
    assert.ok(existsSync(build));
    assert.match(lastToolResult(h), deniedResult);
    assert.match(now(fake, q).text, /\n\n⛔ Denied by u0owner$/);
    assert.deepEqual(labels(fake, q), []);

    scriptCommand(h, 'rm -rf build', 'cleaned');
    await say({ text: 'now do clean it' });
    const second = await waitQuestion(fake, 2);
    assert.equal((await post(fake.signedPress({ channel: dm, ts: second.ts, user: owner, label: 'Allow once' }))).status, 200);
    await waitShown(fake, 'cleaned');
    await h.runner.waitIdle();
    assert.equal(existsSync(build), false, 'the signed Allow once did not run it');
    assert.equal(lastToolResult(h), '(no output)\n[exit code: 0]');
    assert.match(now(fake, second).text, /\n\n✅ Allowed once by u0owner$/);
  } finally {
    await close();
  }
});

test('slack: Always allow → after a gateway restart on the same HERMES_HOME the same command runs without asking', { timeout: 60_000 }, async () => {
  const { h, fake, build, say, close } = await start();
  try {
    scriptCommand(h, 'rm -rf build', 'cleaned');
    await say({ text: 'clean up the build' });
    const q = await waitQuestion(fake);
    await ownerPresses({ h, fake, q, label: 'Always allow', final: 'cleaned' });
    assert.equal(existsSync(build), false);
    assert.match(now(fake, q).text, /\n\n✅ Always allowed by u0owner$/);
    await h.restart();
    mkdirSync(build);
    scriptCommand(h, 'rm -rf build', 'gone again');
    await say({ text: 'clean up after the restart' });
    await waitShown(fake, 'gone again');
    await h.runner.waitIdle();
    assert.equal(existsSync(build), false, 'the always rule did not survive the restart');
    assert.equal(questions(fake).length, 1, 'asked again despite the rule');
    assert.equal(lastToolResult(h), '(no output)\n[exit code: 0]');
  } finally {
    await close();
  }
});

test('slack: no answer within tools.approval_timeout (fake clock) → denied, the question says so without buttons, the model is told', { timeout: 60_000 }, async () => {
  const clock = new FakeClock();
  const { h, fake, build, say, close } = await start({ clock });
  try {
    scriptCommand(h, 'rm -rf build', 'nobody answered');
    await say({ text: 'clean up the build' });
    await driveUntil({ clock, check: () => questions(fake).length === 1, what: 'the question', stepMs: 100 });
    const q = questions(fake)[0];
    assert.ok(q);
    await clock.advance(4 * 60_000);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(h.fake.requests.length, 1, 'denied before the timeout');
    assert.equal(labels(fake, q).flat().length, 4);
    await driveUntil({ clock, check: () => fake.messages(dm).some((m) => !m.deleted && m.text === 'nobody answered'), what: 'the final answer', stepMs: 1000 });
    await h.runner.waitIdle();
    assert.ok(existsSync(build), 'the command ran without an answer');
    assert.match(now(fake, q).text, /\n\n⌛ No answer in 5 min — denied$/);
    assert.deepEqual(labels(fake, q), []);
    assert.match(lastToolResult(h), /^Not run: no answer from the owner within 5 min \(denied\)\. Do not retry it/);
  } finally {
    await close();
  }
});

test('slack: a restart denies what waits; a question left with its buttons (the update failed) → a press after the restart gets an "expired" notice, its buttons removed, nothing runs', { timeout: 60_000 }, async () => {
  const { h, fake, build, say, close } = await start();
  try {
    scriptCommand(h, 'rm -rf build', 'stopped for the restart');
    await say({ text: 'clean up the build' });
    const q = await waitQuestion(fake);
    // The shutdown's update of the question fails (as if the gateway had died): its buttons stay on the phone.
    fake.failNext({ method: 'chat.update', status: 200, error: 'message_not_found', count: 1 });
    await h.restart();
    assert.match(lastToolResult(h), /^Not run: not approved: the gateway is stopping\. Do not retry it/);
    await h.runner.waitIdle();
    const calls = h.fake.requests.length;
    assert.equal(labels(fake, q).flat().length, 4, 'the test needs the old buttons still shown');
    await fake.press({ channel: dm, ts: q.ts, user: owner, label: 'Allow once' });
    await fake.waitFor({ predicate: (f) => f.ephemerals.some((e) => e.user === owner) && f.buttons({ channel: dm, ts: q.ts }).length === 0, timeoutMs: 15_000 });
    assert.deepEqual(fake.ephemerals.map((e) => e.text), ['This question was already answered or has expired.']);
    await new Promise((r) => setTimeout(r, 300));
    await h.runner.waitIdle();
    assert.ok(existsSync(build), 'an old button acted after the restart');
    assert.equal(h.fake.requests.length, calls, 'the press started a turn');
  } finally {
    await close();
  }
});
