import { z } from 'zod';
import { normalizePhone } from '../../src/util/phone.js';
import { bool, duration, httpUrl, httpUrlProblem, optionalString, size } from '../../src/util/config-fields.js';

/**
 * A phone number in E.164 form, normalized on load ("+1 555-123-4567" → "+15551234567"). An unquoted
 * +15551234567 reaches us as a YAML number without its plus, so numbers are refused with a hint to quote them.
 */
function phoneNumber(): z.ZodType<string, unknown> {
  return z.unknown().transform((value, ctx): string => {
    if (typeof value === 'number') {
      ctx.addIssue({ code: 'custom', message: `quote phone numbers ("+${value}"): YAML reads an unquoted +${value} as a number and drops the +`, input: value });
      return z.NEVER;
    }
    const normalized = typeof value === 'string' ? normalizePhone({ value }) : undefined;
    if (normalized === undefined) {
      ctx.addIssue({ code: 'custom', message: 'a phone number in E.164 form with its country code, e.g. "+15551234567"', input: value });
      return z.NEVER;
    }
    return normalized;
  });
}

/** platforms.sms (Twilio). Enabled only by `enabled: true`, never because TWILIO_* variables exist. */
export const smsSchema = z
  .strictObject({
    enabled: bool().default(false),
    allowed_users: z.array(phoneNumber()).default([]),
    account_sid: optionalString(),
    auth_token: optionalString(),
    from_number: z.preprocess((value) => (value === '' || value === null ? undefined : value), phoneNumber().optional()).optional(),
    messaging_service_sid: optionalString(),
    webhook_url: optionalString(),
    webhook_path: z.string().startsWith('/').default('/sms/twilio'),
    api_base: httpUrl().default('https://api.twilio.com'),
    max_media_size: size({ defaultValue: '5m' }),
    media_url_ttl: duration({ defaultValue: '1h', minMs: 60_000 }),
    unauthorized: z.enum(['pair', 'ignore']).default('pair'),
  })
  .superRefine((block, ctx) => {
    // Checked as the other URLs are (the scheme named), but only here: it may be unset while SMS is off.
    const webhookProblem = block.webhook_url === undefined ? undefined : httpUrlProblem({ text: block.webhook_url });
    if (webhookProblem !== undefined) ctx.addIssue({ code: 'custom', path: ['webhook_url'], message: webhookProblem, input: block.webhook_url });
    if (block.messaging_service_sid !== undefined && !block.messaging_service_sid.startsWith('MG')) {
      ctx.addIssue({ code: 'custom', path: ['messaging_service_sid'], message: 'a Messaging Service SID (MG...)' });
    }
    if (!block.enabled) return;
    if (block.account_sid === undefined || !block.account_sid.startsWith('AC')) {
      ctx.addIssue({ code: 'custom', path: ['account_sid'], message: 'the Twilio account SID (AC...) (required when enabled: true)' });
    }
    if (block.auth_token === undefined) {
      ctx.addIssue({ code: 'custom', path: ['auth_token'], message: 'the Twilio auth token (required when enabled: true; it also verifies webhook signatures)' });
    }
    if (block.from_number === undefined && block.messaging_service_sid === undefined) {
      ctx.addIssue({ code: 'custom', path: ['from_number'], message: 'the Twilio number replies come from, or set messaging_service_sid (one is required when enabled: true)' });
    }
    if (block.webhook_url === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['webhook_url'],
        message:
          'the public URL Twilio posts incoming messages to, exactly as set in the Twilio console (required when enabled: true: ' +
          'Twilio signs each request over that URL, so without it no request can be verified, and picture links are built from it)',
      });
    }
  })
  .prefault({});

/** What `platforms.sms` holds once validated. */
export type SmsConfig = z.output<typeof smsSchema>;
