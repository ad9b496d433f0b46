import { z } from 'zod';

/**
 * `platforms.api`: an OpenAI-compatible HTTP API on the gateway's HTTP server (POST /v1/chat/completions,
 * GET /v1/models). Built from zod alone (an adapter reaches only src/core, src/util and adapters/kit), so the few
 * field helpers below mirror src/config/fields.ts: `${VAR}` interpolation gives strings, "true"/"4096" are taken.
 */

/** A boolean; "true"/"false" strings (from `${VAR}`) accepted. */
function bool(): z.ZodType<boolean, unknown> {
  return z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    const lower = value.trim().toLowerCase();
    return lower === 'true' ? true : lower === 'false' ? false : value;
  }, z.boolean());
}

/** An integer in [min, max]; numeric strings accepted. */
function int(params: { min: number; max: number }): z.ZodType<number, unknown> {
  return z.preprocess((value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value), z.number().int().min(params.min).max(params.max));
}

/** A sender id as allowed_users names it (`key-1`, ...); unquoted YAML numbers are turned back into text. */
const senderId = z.preprocess((value) => (Number.isSafeInteger(value) ? String(value) : value), z.string().min(1));

/** The shortest key taken: anything shorter is too easy to guess. */
export const MIN_KEY_LENGTH = 16;

/** One bearer key; an empty string (an unset `${VAR:-}`) is left out, so a missing key never opens the API. */
const apiKey = z.string().min(MIN_KEY_LENGTH, `an API key of at least ${MIN_KEY_LENGTH} characters (e.g. from \`openssl rand -hex 32\`)`);

/** platforms.api */
export const apiSchema = z
  .strictObject({
    /** Turn the platform on (never on by keys alone). */
    enabled: bool().default(false),
    /** Bearer keys a client may send (`Authorization: Bearer <key>`); the sender of a request is `key-N`, its key's position (1-based). */
    keys: z.preprocess((value) => (Array.isArray(value) ? value.filter((item) => item !== '' && item !== null) : value), z.array(apiKey)).default([]),
    /** Senders (`key-1`, `key-2`, ...) allowed to talk, and so the owners who answer approvals; empty: every key may talk, nobody is owner. */
    allowed_users: z.array(senderId).default([]),
    /** The model id GET /v1/models lists and responses carry; default `hermes-<profile>`. */
    model_id: z.preprocess((value) => (value === '' || value === null ? undefined : value), z.string().min(1).max(200).optional()).optional(),
    /** Largest request body taken (the client's copy of the history included); larger ones get 413. */
    body_limit_bytes: int({ min: 1024, max: 64 * 1024 * 1024 }).default(4 * 1024 * 1024),
    /** Longest new user message taken, in characters; longer ones get 400 naming the message. */
    max_input_chars: int({ min: 1, max: 10_000_000 }).default(100_000),
  })
  .superRefine((block, ctx) => {
    if (block.enabled && block.keys.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['keys'], message: 'at least one API key, e.g. keys: [${HERMES_API_KEY}] with HERMES_API_KEY in the profile .env (required when enabled: true)' });
    }
    const seen = new Set<string>();
    block.keys.forEach((key, index) => {
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['keys', index], message: 'a key not listed before (each key is one sender)' });
      seen.add(key);
    });
  })
  .prefault({});

/** The `platforms.api` block as the adapter gets it. */
export type ApiConfig = z.infer<typeof apiSchema>;

/** The sender id of the key at `index` (0-based) in `keys`: what allowed_users names. */
export function senderIdOfKey(params: { index: number }): string {
  return `key-${params.index + 1}`;
}
