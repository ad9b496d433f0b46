import twilio from 'twilio';
import { fakeSid, type FetchedMedia } from './rest-api.js';

/** What the gateway answered a webhook with. */
export interface WebhookAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
  /** The Retry-After header, if the gateway sent one. */
  readonly retryAfter: string | null;
}

/** An incoming SMS/MMS as Twilio posts it. */
export interface InboundOptions {
  readonly from: string;
  readonly to: string;
  readonly body: string;
  /** Reuse a MessageSid (Twilio's retry of the same message); a new one otherwise. */
  readonly messageSid?: string;
  readonly media?: readonly { url: string; contentType: string }[];
}

/** How to spoil a request, for signature tests. */
export interface Tampering {
  /** Sign over this URL instead of the configured public one. */
  readonly signUrl?: string;
  /** Sign with this token instead of the account's. */
  readonly signToken?: string;
  /** Change the form after signing it. */
  readonly alter?: (params: Record<string, string>) => Record<string, string>;
  /** Leave the X-Twilio-Signature header out. */
  readonly unsigned?: boolean;
}

/**
 * Twilio's side of the webhooks: posts incoming messages and status callbacks to the gateway the way Twilio does
 * (form-encoded, X-Twilio-Signature made with twilio's own getExpectedTwilioSignature over the PUBLIC URL and the
 * params), sending them to the gateway's local address; and fetches the media links the bot sent.
 */
export class TwilioWebhooks {
  private readonly accountSid: string;
  private readonly authToken: string;
  /** The URL configured in Twilio (platforms.sms.webhook_url). */
  readonly publicUrl: string;
  private localOrigin: string | undefined;
  /** The params of the last incoming message posted (for redelivery). */
  lastInbound: Record<string, string> | undefined;

  constructor(params: { accountSid: string; authToken: string; publicUrl: string }) {
    this.accountSid = params.accountSid;
    this.authToken = params.authToken;
    this.publicUrl = params.publicUrl;
  }

  /** Where the gateway listens (http://127.0.0.1:PORT); public URLs are rewritten to it. */
  setLocalOrigin(params: { origin: string }): void {
    this.localOrigin = params.origin;
  }

  /** A public URL of the gateway (webhook, status callback, media link) as reachable from the test. */
  toLocal(params: { url: string }): string {
    if (this.localOrigin === undefined) throw new Error('TwilioWebhooks: setLocalOrigin first (the gateway is not listening yet)');
    const url = new URL(params.url);
    if (url.origin !== new URL(this.publicUrl).origin) throw new Error(`TwilioWebhooks: ${params.url} is not under the public URL ${this.publicUrl}`);
    return `${this.localOrigin}${url.pathname}${url.search}`;
  }

  /** The params Twilio posts for an incoming message. */
  inboundParams(options: InboundOptions): Record<string, string> {
    const sid = options.messageSid ?? fakeSid(options.media && options.media.length > 0 ? 'MM' : 'SM');
    const params: Record<string, string> = {
      ToCountry: 'US', ToState: 'CA', SmsMessageSid: sid, NumMedia: String(options.media?.length ?? 0), ToCity: '', FromZip: '', SmsSid: sid,
      FromState: 'NY', SmsStatus: 'received', FromCity: '', Body: options.body, FromCountry: 'US', To: options.to, ToZip: '',
      NumSegments: String(Math.max(1, Math.ceil(options.body.length / 153))), MessageSid: sid, AccountSid: this.accountSid, From: options.from, ApiVersion: '2010-04-01',
    };
    for (const [i, item] of (options.media ?? []).entries()) {
      params[`MediaContentType${i}`] = item.contentType;
      params[`MediaUrl${i}`] = item.url;
    }
    return params;
  }

  /** Posts an incoming message to the webhook URL. */
  async inbound(options: InboundOptions, tampering: Tampering = {}): Promise<WebhookAnswer> {
    const params = this.inboundParams(options);
    this.lastInbound = params;
    return this.post({ url: this.publicUrl, params, tampering });
  }

  /** Posts the last incoming message again, unchanged (Twilio's retry). */
  async redeliverLast(): Promise<WebhookAnswer> {
    if (this.lastInbound === undefined) throw new Error('TwilioWebhooks: nothing to redeliver');
    return this.post({ url: this.publicUrl, params: this.lastInbound });
  }

  /** Posts a status callback for a sent message to the callback URL it named. */
  async status(params: { callbackUrl: string; messageSid: string; to: string; from?: string; status: string; errorCode?: string }, tampering: Tampering = {}): Promise<WebhookAnswer> {
    const form: Record<string, string> = {
      SmsSid: params.messageSid, SmsStatus: params.status, MessageStatus: params.status, To: params.to, MessageSid: params.messageSid,
      AccountSid: this.accountSid, From: params.from ?? '', ApiVersion: '2010-04-01', ...(params.errorCode !== undefined ? { ErrorCode: params.errorCode } : {}),
    };
    return this.post({ url: params.callbackUrl, params: form, tampering });
  }

  /** Signs `params` over the public `url` and posts them to the gateway's local address. */
  async post(params: { url: string; params: Record<string, string>; tampering?: Tampering; body?: string }): Promise<WebhookAnswer> {
    const tampering = params.tampering ?? {};
    const signature = twilio.getExpectedTwilioSignature(tampering.signToken ?? this.authToken, tampering.signUrl ?? params.url, params.params);
    const form = tampering.alter ? tampering.alter({ ...params.params }) : params.params;
    const response = await fetch(this.toLocal({ url: params.url }), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded; charset=UTF-8',
        'user-agent': 'TwilioProxy/1.1',
        ...(tampering.unsigned === true ? {} : { 'x-twilio-signature': signature }),
      },
      body: params.body ?? new URLSearchParams(form).toString(),
    });
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', retryAfter: response.headers.get('retry-after'), text: await response.text() };
  }

  /** Fetches a media link the bot sent (a public URL), as Twilio does when it builds the MMS. */
  async fetchMedia(params: { url: string }): Promise<FetchedMedia> {
    const { url } = params;
    const response = await fetch(this.toLocal({ url }));
    return { url, status: response.status, bytes: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type') ?? '' };
  }
}
