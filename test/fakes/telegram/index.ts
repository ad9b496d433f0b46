export { FakeTelegram } from './fake-telegram.js';
export type {
  AddFileOptions, BotMessage, CallRecord, FailRule, FailWithDrop, FailWithStatus, FakeTelegramOptions, FileHandle,
  MessageKind, PressOptions, PressRecord, PushChat, PushMessageOptions, PushUser, SentFile, WebhookRecord,
} from './types.js';
