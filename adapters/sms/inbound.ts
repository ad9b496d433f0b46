import type { MessageEvent } from '../../src/core/adapter.js';

/** The form fields of a Twilio webhook, as posted. */
export type TwilioParams = Readonly<Record<string, string>>;

/** A picture or file attached to an incoming MMS, still on Twilio. */
export interface TwilioMedia {
  readonly url: string;
  readonly contentType: string | undefined;
}

/** What one incoming-message webhook means to the gateway. */
export type TwilioRead =
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'message'; readonly event: Omit<MessageEvent, 'media'>; readonly media: readonly TwilioMedia[] };

/** Most media Twilio attaches to one MMS. */
const MAX_MEDIA = 10;

/** The media of an MMS: NumMedia, MediaUrl0..N, MediaContentType0..N. */
function mediaOf(params: { params: TwilioParams }): TwilioMedia[] {
  const count = Math.min(Number.parseInt(params.params['NumMedia'] ?? '0', 10) || 0, MAX_MEDIA);
  const media: TwilioMedia[] = [];
  for (let i = 0; i < count; i++) {
    const url = params.params[`MediaUrl${i}`];
    if (url !== undefined && url !== '') media.push({ url, contentType: params.params[`MediaContentType${i}`] });
  }
  return media;
}

/**
 * Turns an incoming-message webhook into a gateway message (media still to download). The MessageSid is the
 * message id, so Twilio's retries of the same message are one journal entry. Messages from the bot's own
 * numbers are skipped (no loops).
 */
export function readTwilioMessage(params: { params: TwilioParams; ownNumbers: readonly string[]; now: number }): TwilioRead {
  const fields = params.params;
  const sid = fields['MessageSid'] ?? fields['SmsMessageSid'] ?? fields['SmsSid'];
  const from = fields['From']?.trim();
  if (sid === undefined || sid === '') return { kind: 'skip', reason: 'no MessageSid' };
  if (from === undefined || from === '') return { kind: 'skip', reason: 'no From' };
  if (params.ownNumbers.includes(from)) return { kind: 'skip', reason: 'sent from the bot’s own number' };
  const media = mediaOf({ params: fields });
  const text = (fields['Body'] ?? '').trim();
  if (text === '' && media.length === 0) return { kind: 'skip', reason: 'empty message' };
  return {
    kind: 'message',
    media,
    event: {
      platform: 'sms',
      messageId: sid,
      chat: { id: from, kind: 'dm' },
      sender: { id: from, isBot: false },
      text,
      mentioned: true,
      receivedAt: params.now,
    },
  };
}
