import type { Logger } from 'pino';
import { SlackAdapter } from '../../adapters/slack/adapter.js';
import { slackSchema } from '../../adapters/slack/config-schema.js';
import type { Clock } from '../../src/core/clock.js';
import type { ContractPlatform } from '../contract/platform.js';
import { FakeSlack } from '../fakes/slack/index.js';

/** Tokens the fake accepts. */
export const slackTokens = { botToken: 'xoxb-test-bot-token', appToken: 'xapp-test-app-token', signingSecret: 'slack-signing-secret-for-tests' };

/** Builds a Slack adapter talking to the fake (Socket Mode unless overridden). */
export function slackAdapter(params: { fake: FakeSlack; cacheDir: string; clock: Clock; logger: Logger; overrides?: Record<string, unknown> }): SlackAdapter {
  return new SlackAdapter({
    config: slackSchema.parse({
      enabled: true,
      bot_token: slackTokens.botToken,
      app_token: slackTokens.appToken,
      signing_secret: slackTokens.signingSecret,
      api_url: params.fake.apiUrl,
      ...params.overrides,
    }),
    cacheDir: params.cacheDir,
    clock: params.clock,
    logger: params.logger,
  });
}

/** Slack as a contract platform: the real Slack SDK clients against FakeSlack, in Socket Mode. */
export async function slackPlatform(): Promise<ContractPlatform> {
  const fake = new FakeSlack({ ...slackTokens });
  await fake.start();
  const owner = { id: 'U0OWNER', chatId: 'D0OWNER' };
  const stranger = { id: 'U0STRANGER', chatId: 'D0STRANGER' };
  let last: Record<string, unknown> | undefined;
  let lastId = '';
  let n = 0;
  let adapter: SlackAdapter | undefined;
  return {
    owner,
    stranger,
    entry: ({ profile, clock, logger }) => {
      adapter ??= slackAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [owner.id], unauthorized: 'ignore' } });
      return { adapter, allow: [owner.id], unauthorized: 'ignore' };
    },
    userSays: async ({ user, text, file }) => {
      const files = file ? [fake.addFile({ bytes: file.bytes, name: file.fileName, user: user.id })] : undefined;
      last = fake.userMessage({ channel: user.chatId, channelType: 'im', user: user.id, text, ...(files ? { files } : {}) });
      n += 1;
      lastId = `Ev${n}`;
      await fake.deliverEvent({ event: last, eventId: lastId });
    },
    redeliverLast: async () => {
      if (!last) throw new Error('nothing to redeliver');
      await fake.deliverEvent({ event: last, eventId: lastId, retryAttempt: 1, retryReason: 'timeout' });
    },
    botMessages: ({ chatId }) =>
      fake
        .messages(chatId)
        .filter((m) => !m.deleted)
        .map((m) => {
          const file = m.files?.[0];
          const bytes = file ? fake.fileBytes(file.id) : undefined;
          return file && bytes ? { text: m.text, file: { name: file.name, bytes } } : { text: m.text };
        }),
    buttonsOf: ({ chatId, messageId }) => fake.buttons({ channel: chatId, ts: messageId }).flat().map((b) => b.actionId),
    press: async ({ user, chatId, messageId, choiceId }) => {
      await fake.press({ channel: chatId, ts: messageId, user: user.id, actionId: choiceId });
    },
    visibleLength: ({ text }) => text.length,
    close: async () => fake.close(),
  };
}
