export { FakeDiscord } from './fake-discord.js';
export { Intent } from './intents.js';
export type { InteractionRecord, SlashCommandOptions } from './interactions.js';
export type {
  BotMessage, CallRecord, ChannelSpec, FailRule, FakeDiscordOptions, GuildSpec, IncomingAttachment, MessageCreateOptions,
  SentAttachment, UserSpec,
} from './types.js';
