import { z } from 'zod';
import type { TwilioParams } from './inbound.js';

/** A Twilio (or Twilio-compatible) resource id: a few letters and digits, UUIDs with dashes allowed. */
const sid = z.string().regex(/^[A-Za-z0-9-]{2,128}$/, 'expected a message id');

/** A phone number or sender address as Twilio posts it (E.164, `whatsapp:+1...`, an alphanumeric sender id). */
const address = z.string().trim().min(1).max(64);

/** The fields of an incoming-message webhook that inbound.ts reads; other fields are kept as they are. */
export const twilioInboundSchema = z
  .looseObject({
    MessageSid: sid.optional(),
    SmsMessageSid: sid.optional(),
    SmsSid: sid.optional(),
    From: address,
    To: z.string().max(64).optional(),
    Body: z.string().optional(),
    NumMedia: z.string().regex(/^\d{1,3}$/, 'expected a count').optional(),
  })
  .refine((fields) => (fields.MessageSid ?? fields.SmsMessageSid ?? fields.SmsSid) !== undefined, { message: 'no MessageSid', path: ['MessageSid'] });

/** The fields of a status callback that status.ts reads. */
export const twilioStatusSchema = z
  .looseObject({
    MessageSid: sid.optional(),
    SmsSid: sid.optional(),
    MessageStatus: z.string().regex(/^[a-z_-]{1,32}$/, 'expected a status').optional(),
    SmsStatus: z.string().regex(/^[a-z_-]{1,32}$/, 'expected a status').optional(),
    ErrorCode: z.string().max(16).optional(),
    To: z.string().max(64).optional(),
  })
  .refine((fields) => (fields.MessageSid ?? fields.SmsSid) !== undefined, { message: 'no MessageSid', path: ['MessageSid'] })
  .refine((fields) => (fields.MessageStatus ?? fields.SmsStatus) !== undefined, { message: 'no MessageStatus', path: ['MessageStatus'] });

/** Whether signed form fields have the shape a route reads: `issue` says where they do not. */
export type FormCheck = { readonly kind: 'ok' } | { readonly kind: 'malformed'; readonly issue: string };

/** Checks form fields against a route's schema; never throws. */
export function checkForm(params: { fields: TwilioParams; schema: typeof twilioInboundSchema | typeof twilioStatusSchema }): FormCheck {
  const parsed = params.schema.safeParse(params.fields);
  if (parsed.success) return { kind: 'ok' };
  const first = parsed.error.issues[0];
  return { kind: 'malformed', issue: first ? `${first.path.join('.')}: ${first.message}` : 'unknown problem' };
}
