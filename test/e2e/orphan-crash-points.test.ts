import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pino } from 'pino';
import type { AdapterStartParams } from '../../src/core/adapter.js';
import { systemClock } from '../../src/core/clock.js';
import { FakeDiscord } from '../fakes/discord/index.js';
import { FakeSlack } from '../fakes/slack/index.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { crashFirstSend, type CrashPlatform, type CrashPoint } from '../helpers/crash-points.js';
import { discordAdapter, discordToken, testGuild } from '../helpers/discord.js';
import { slackAdapter, slackTokens } from '../helpers/slack.js';
import { testToken, telegramAdapter } from '../helpers/telegram.js';

const logger = pino({ level: 'silent' });

async function telegram(): Promise<CrashPlatform> {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  const update = fake.pushMessage({ chat: { id: 77, type: 'private' }, from: { id: 77, first_name: 'Owner' }, text: 'answer me' });
  return {
    chat: { id: '77', kind: 'dm' },
    replyToId: `77:${update.message?.message_id ?? 0}`,
    startProcess: async ({ cacheDir }) => ({ adapter: telegramAdapter({ fake, cacheDir, clock: systemClock, logger }), stop: async () => undefined }),
    holdFirstSend: () => fake.holdNext({ method: 'sendMessage' }),
    visible: () => fake.chatMessages(77).filter((m) => !m.deleted).map((m) => ({ id: String(m.message_id), text: m.shown })),
    close: () => fake.close(),
  };
}

async function slack(): Promise<CrashPlatform> {
  const fake = new FakeSlack({ ...slackTokens });
  await fake.start();
  const channel = 'C0GENERAL';
  const asked = fake.userMessage({ channel, channelType: 'channel', user: 'U0OWNER', text: `<@${fake.botUserId}> answer me` });
  const ts = String(asked['ts']);
  return {
    // Replies go in the thread of the message they answer.
    chat: { id: channel, kind: 'channel', threadId: ts },
    replyToId: `${channel}:${ts}`,
    startProcess: async ({ cacheDir }) => ({ adapter: slackAdapter({ fake, cacheDir, clock: systemClock, logger }), stop: async () => undefined }),
    holdFirstSend: () => fake.holdNext({ method: 'chat.postMessage' }),
    visible: () => fake.messages(channel).filter((m) => !m.deleted).map((m) => ({ id: m.ts, text: m.text })),
    close: () => fake.close(),
  };
}

async function discord(): Promise<CrashPlatform> {
  const fake = new FakeDiscord({ token: discordToken, guilds: [testGuild] });
  await fake.start();
  const ownerId = '200000000000000001';
  const dm = fake.openDm({ userId: ownerId, username: 'owner' });
  const asked = fake.messageCreate({ channelId: dm, author: { id: ownerId, username: 'owner' }, content: 'answer me' });
  return {
    chat: { id: dm, kind: 'dm' },
    replyToId: String(asked['id']),
    startProcess: async ({ cacheDir }) => {
      const adapter = discordAdapter({ fake, cacheDir, clock: systemClock, logger });
      const stop = new AbortController();
      let connected = (): void => undefined;
      const ready = new Promise<void>((resolve) => (connected = resolve));
      const params: AdapterStartParams = {
        signal: stop.signal,
        emit: async () => undefined,
        report: (report) => { if (report.state === 'connected') connected(); },
        storage: { get: () => undefined, set: () => undefined },
        mayTalk: () => true, choose: async () => ({}),
      };
      const running = adapter.start(params);
      await Promise.race([ready, running]);
      return { adapter, stop: async () => { stop.abort(); await running.catch(() => undefined); } };
    },
    holdFirstSend: () => fake.holdNext({ route: 'POST /channels/:channel/messages' }),
    visible: () => fake.channelMessages({ channelId: dm }).filter((m) => !m.deleted).map((m) => ({ id: m.id, text: m.content })),
    close: () => fake.close(),
  };
}

const platforms: Record<string, () => Promise<CrashPlatform>> = { telegram, slack, discord };
const points: readonly CrashPoint[] = ['before the call', 'accepted, answer not recorded', 'after recording'];
const full = 'INFL- and the rest of the answer, complete.';

for (const [name, make] of Object.entries(platforms)) {
  describe(`${name}: a crash during the first send leaves one complete message`, () => {
    for (const point of points) {
      test(`crash ${point}: after the replay the chat shows exactly the finished reply`, { timeout: 30_000 }, async () => {
        const platform = await make();
        try {
          const run = await crashFirstSend({ platform, point, full });
          const shown = platform.visible();
          assert.deepEqual(shown.map((m) => m.text), [full], `the chat shows ${JSON.stringify(shown.map((m) => m.text))}`);
          assert.equal(run.result.textComplete, true, run.result.errors.join('; '));
          assert.deepEqual(run.result.messageIds, [shown[0]?.id]);
          assert.equal(run.intentsLeft, 0, 'the send intent was settled');
          if (point === 'before the call') {
            assert.equal(run.atCrash.length, 0, 'the platform never got the first send');
          } else {
            assert.equal(run.atCrash.length, 1, 'the platform shows the preview at the crash');
            assert.match(run.atCrash[0]?.text ?? '', /^INFL-/);
            assert.equal(shown[0]?.id, run.atCrash[0]?.id, 'the preview itself became the answer');
          }
        } finally {
          await platform.close();
        }
      });
    }
  });
}
