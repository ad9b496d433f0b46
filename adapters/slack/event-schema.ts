import { z } from 'zod';
import type { SlackMessageEvent } from './inbound.js';

/** A file shared with the app: the fields media-in.ts reads. */
const fileSchema = z.looseObject({
  id: z.string().min(1),
  name: z.string().optional(),
  mimetype: z.string().optional(),
  size: z.number().nonnegative().optional(),
  url_private_download: z.string().optional(),
  url_private: z.string().optional(),
});

/** A `message` or `app_mention` event: exactly the fields inbound.ts reads (ids non-empty), others kept as they are. */
export const slackMessageEventSchema = z.looseObject({
  type: z.string(),
  subtype: z.string().optional(),
  channel: z.string().min(1).optional(),
  channel_type: z.string().optional(),
  user: z.string().min(1).optional(),
  bot_id: z.string().min(1).optional(),
  text: z.string().optional(),
  ts: z.string().min(1).optional(),
  thread_ts: z.string().min(1).optional(),
  files: z.array(fileSchema).optional(),
});

/** An `event_callback` carrying an event the adapter reads. */
export interface SlackEventCallback {
  readonly eventId?: string;
  readonly event: SlackMessageEvent;
}

/** What an Events API body (over HTTP or Socket Mode) is to the adapter. */
export type CallbackCheck =
  | { readonly kind: 'challenge'; readonly challenge: string }
  | { readonly kind: 'event'; readonly callback: SlackEventCallback }
  /** A well-formed callback the adapter does not handle (another callback type, another event type). */
  | { readonly kind: 'skip'; readonly reason: string }
  /** A body the adapter cannot read; `issue` says where. */
  | { readonly kind: 'malformed'; readonly issue: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Event types inbound.ts turns into messages. */
const readTypes = new Set(['message', 'app_mention']);

/** Checks an Events API body; never throws. */
export function checkCallback(params: { body: unknown }): CallbackCheck {
  const { body } = params;
  if (!isRecord(body)) return { kind: 'malformed', issue: 'the body is not a JSON object' };
  const type = body['type'];
  if (typeof type !== 'string') return { kind: 'malformed', issue: 'type: expected a string' };
  if (type === 'url_verification') {
    const challenge = body['challenge'];
    return typeof challenge === 'string' ? { kind: 'challenge', challenge } : { kind: 'malformed', issue: 'challenge: expected a string' };
  }
  if (type !== 'event_callback') return { kind: 'skip', reason: `callback ${type.slice(0, 40)}` };
  const eventId = body['event_id'];
  if (eventId !== undefined && (typeof eventId !== 'string' || eventId === '')) return { kind: 'malformed', issue: 'event_id: expected a non-empty string' };
  const event = body['event'];
  if (!isRecord(event) || typeof event['type'] !== 'string') return { kind: 'malformed', issue: 'event: expected an object with a type' };
  if (!readTypes.has(event['type'])) return { kind: 'skip', reason: `event ${event['type'].slice(0, 40)}` };
  const parsed = slackMessageEventSchema.safeParse(event);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return { kind: 'malformed', issue: first ? `event.${first.path.join('.')}: ${first.message}` : 'event: unknown problem' };
  }
  return { kind: 'event', callback: { ...(eventId !== undefined ? { eventId } : {}), event: parsed.data } };
}
