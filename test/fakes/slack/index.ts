export { FakeSlack } from './fake-slack.js';
export { signedEventRequest } from './events.js';
export type {
  AckRecord, AddFileOptions, BotMessage, CallRecord, ChannelType, Delivery, DeliverOptions, FailRule, FakeSlackOptions,
  SlackFileObject, UserMessageOptions,
} from './types.js';
