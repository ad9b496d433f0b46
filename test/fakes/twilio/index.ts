export { FakeTwilio, fakeSid } from './rest-api.js';
export type { FakeCall, FakeSentMessage, FetchedMedia } from './rest-api.js';
export { TwilioWebhooks } from './webhooks.js';
export type { InboundOptions, Tampering, WebhookAnswer } from './webhooks.js';
