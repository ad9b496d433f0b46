import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { FakeDiscord } from '../fakes/discord/index.js';
import type { HeldAnswer } from '../fakes/held-answers.js';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { FakeSlack } from '../fakes/slack/index.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { discordToken, testGuild } from '../helpers/discord.js';
import { startCliGateway, until } from '../helpers/gateway-process.js';
import { slackTokens } from '../helpers/slack.js';
import { testToken } from '../helpers/telegram.js';

/** One platform's fake, as the crash test drives it. */
interface Platform {
  /** platforms.<name> in config.yaml. */
  readonly config: Record<string, unknown>;
  /** Whether the gateway is connected and can hear the user. */
  ready(): boolean;
  /** The owner's message to the bot. */
  userSays(params: { text: string }): Promise<void>;
  holdFirstSend(): HeldAnswer;
  /** The bot's messages the chat shows, oldest first. */
  visible(): { id: string; text: string }[];
  /** How many messages the bot created (sends that reached the platform). */
  sends(): number;
  close(): Promise<void>;
}

async function telegram(): Promise<Platform> {
  const fake = new FakeTelegram({ token: testToken });
  await fake.start();
  return {
    config: { telegram: { enabled: true, token: testToken, api_root: fake.apiRoot, allowed_users: ['@owner'], merge_window: '200ms' } },
    ready: () => fake.calls.some((c) => c.method === 'getUpdates'),
    userSays: async ({ text }) => void fake.pushMessage({ chat: { id: 77, type: 'private' }, from: { id: 77, first_name: 'Owner', username: 'owner' }, text }),
    holdFirstSend: () => fake.holdNext({ method: 'sendMessage' }),
    visible: () => fake.chatMessages(77).filter((m) => !m.deleted).map((m) => ({ id: String(m.message_id), text: m.shown })),
    sends: () => fake.chatMessages(77).length,
    close: () => fake.close(),
  };
}

async function slack(): Promise<Platform> {
  const fake = new FakeSlack({ ...slackTokens });
  await fake.start();
  const channel = 'C0GENERAL';
  let events = 0;
  return {
    config: {
      slack: { enabled: true, bot_token: slackTokens.botToken, app_token: slackTokens.appToken, signing_secret: slackTokens.signingSecret, api_url: fake.apiUrl, allowed_users: ['U0OWNER'] },
    },
    ready: () => fake.connections > 0,
    userSays: async ({ text }) => {
      events += 1;
      const event = fake.userMessage({ channel, channelType: 'channel', user: 'U0OWNER', text: `<@${fake.botUserId}> ${text}` });
      await fake.deliverEvent({ event, eventId: `EvOrphan${events}`, timeoutMs: 30_000 });
    },
    holdFirstSend: () => fake.holdNext({ method: 'chat.postMessage' }),
    visible: () => fake.messages(channel).filter((m) => !m.deleted).map((m) => ({ id: m.ts, text: m.text })),
    sends: () => fake.messages(channel).length,
    close: () => fake.close(),
  };
}

async function discord(): Promise<Platform> {
  const fake = new FakeDiscord({ token: discordToken, guilds: [testGuild] });
  await fake.start();
  const owner = { id: '200000000000000001', username: 'owner' };
  const dm = fake.openDm({ userId: owner.id, username: owner.username });
  return {
    config: { discord: { enabled: true, token: discordToken, api_url: fake.apiBase, allowed_users: [owner.id] } },
    ready: () => fake.sessions > 0,
    userSays: async ({ text }) => void fake.messageCreate({ channelId: dm, author: owner, content: text }),
    holdFirstSend: () => fake.holdNext({ route: 'POST /channels/:channel/messages' }),
    visible: () => fake.channelMessages({ channelId: dm }).filter((m) => !m.deleted).map((m) => ({ id: m.id, text: m.content })),
    sends: () => fake.channelMessages({ channelId: dm }).length,
    close: () => fake.close(),
  };
}

const platforms: Record<string, () => Promise<Platform>> = { telegram, slack, discord };

for (const [name, make] of Object.entries(platforms)) {
  test(`${name}: kill -9 while the platform holds the answer to the first send; after restart the preview became the answer, nothing else is left`, { timeout: 120_000 }, async () => {
    const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-orphan-'));
    const platform = await make();
    const model = new FakeOpenAI();
    await model.start();
    const dir = path.join(home, 'profiles', 'work');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, '.env'), 'MODEL_KEY=sk-orphan-test\n');
    writeFileSync(
      path.join(dir, 'config.yaml'),
      stringify({
        model: { base_url: model.baseURL, api_key: '${MODEL_KEY}' },
        gateway: { http: { port: 0 }, drain_timeout: '5s' },
        stream: { edit_interval: '250ms' },
        platforms: platform.config,
      }),
    );
    const full = 'INFL- the full answer, finished after the restart.';
    // The first attempt shows "INFL-" and then stalls, its stream open (it is killed); the replay answers at once.
    model.enqueue({ chunks: ['INFL-', ' the', ' full'], hangAfterChunks: 1 }, { text: full });
    const held = platform.holdFirstSend();
    let gateway = startCliGateway({ home, profile: 'work' });
    try {
      await until({ what: 'the gateway to connect', timeoutMs: 30_000, check: () => platform.ready(), output: gateway.output });
      await platform.userSays({ text: 'answer me' });
      await held.reached;
      const preview = platform.visible();
      assert.equal(preview.length, 1, 'the platform accepted the first send');
      assert.match(preview[0]?.text ?? '', /^INFL-/);
      gateway.proc.kill('SIGKILL');
      await gateway.exited;
      held.release();

      gateway = startCliGateway({ home, profile: 'work' });
      const current = gateway;
      await until({ what: 'the finished answer', timeoutMs: 30_000, check: () => platform.visible().some((m) => m.text === full), output: current.output });
      current.proc.kill('SIGTERM');
      assert.equal(await current.exited, 0, current.output());
      const messages = platform.visible();
      assert.deepEqual(messages.map((m) => m.text), [full], 'exactly one complete message');
      assert.equal(messages[0]?.id, preview[0]?.id, 'the preview itself became the answer');
      assert.equal(platform.sends(), 1, 'no second message was ever created');
      const log = readFileSync(path.join(dir, 'logs', 'gateway.log'), 'utf8');
      assert.match(log, /adopted the message an interrupted send created/);
    } finally {
      gateway.proc.kill('SIGKILL');
      held.release();
      await platform.close();
      await model.close();
      rmSync(home, { recursive: true, force: true });
    }
  });
}
