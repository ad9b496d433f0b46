import { z } from 'zod';
import { DURATION_HINT, SIZE_HINT, parseDuration, parseSize } from './units.js';

/** Schemas whose values are durations in milliseconds (so the effective config can print them as "30s"). */
const durationSchemas = new WeakSet<z.core.$ZodType>();
/** Schemas whose values are sizes in bytes (printed back as "10m"). */
const sizeSchemas = new WeakSet<z.core.$ZodType>();

/** Turns a numeric string (as produced by `${VAR}` interpolation) into a number; leaves anything else alone. */
function numericString(value: unknown): unknown {
  return typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value;
}

/** Turns "true"/"false" strings (as produced by `${VAR}` interpolation) into booleans. */
function booleanString(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const lower = value.trim().toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  return value;
}

/** A duration (number of seconds or "500ms"/"1s"/"2m"/"1h"), normalized to milliseconds. */
export function duration(params: { defaultValue: string; minMs?: number }): z.ZodPrefault<z.ZodType<number, unknown>> {
  const minMs = params.minMs ?? 0;
  const schema = z
    .unknown()
    .transform((value, ctx): number => {
      const ms = parseDuration({ value });
      if (ms === undefined) {
        ctx.addIssue({ code: 'custom', message: DURATION_HINT, input: value });
        return z.NEVER;
      }
      if (ms < minMs) {
        ctx.addIssue({ code: 'custom', message: `a duration of at least ${minMs}ms`, input: value });
        return z.NEVER;
      }
      return ms;
    })
    .prefault(params.defaultValue);
  durationSchemas.add(schema);
  return schema;
}

/** Marks a schema whose values are durations in ms parsed some other way (printed back as "30m" like `duration()`'s). */
export function markDuration<T extends z.core.$ZodType>(params: { schema: T }): T {
  durationSchemas.add(params.schema);
  return params.schema;
}

/** A size ("512k", "10m", "1g", or a number of bytes), normalized to bytes. */
export function size(params: { defaultValue: string | number }): z.ZodPrefault<z.ZodType<number, unknown>> {
  const schema = z
    .unknown()
    .transform((value, ctx): number => {
      const bytes = parseSize({ value });
      if (bytes === undefined || bytes < 1) {
        ctx.addIssue({ code: 'custom', message: SIZE_HINT, input: value });
        return z.NEVER;
      }
      return bytes;
    })
    .prefault(params.defaultValue);
  sizeSchemas.add(schema);
  return schema;
}

/** An integer in [min, max] (numeric strings accepted). */
export function int(params: { min: number; max?: number }): z.ZodType<number, unknown> {
  const base = z.number().int().min(params.min);
  return z.preprocess(numericString, params.max === undefined ? base : base.max(params.max));
}

/** A finite number in [min, max] (numeric strings accepted). */
export function num(params: { min: number; max: number }): z.ZodType<number, unknown> {
  return z.preprocess(numericString, z.number().min(params.min).max(params.max));
}

/** A boolean ("true"/"false" strings accepted). */
export function bool(): z.ZodType<boolean, unknown> {
  return z.preprocess(booleanString, z.boolean());
}

/** An optional string; an empty string (e.g. from `${VAR:-}`) counts as not set. */
export function optionalString(): z.ZodOptional<z.ZodType<string | undefined, unknown>> {
  return z.preprocess((value) => (value === '' || value === null ? undefined : value), z.string().optional()).optional();
}

/** True when `schema` was made by `duration()`. */
export function isDurationSchema(params: { schema: z.core.$ZodType }): boolean {
  return durationSchemas.has(params.schema);
}

/** True when `schema` was made by `size()`. */
export function isSizeSchema(params: { schema: z.core.$ZodType }): boolean {
  return sizeSchemas.has(params.schema);
}

/** Why `text` is not an http(s) URL, in words that name the scheme; undefined when it is one. */
export function httpUrlProblem(params: { text: string }): string | undefined {
  const { text } = params;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(text)?.[1]?.toLowerCase();
  if (scheme === undefined) return `an http:// or https:// URL: this one needs http:// or https:// in front (e.g. "http://${text.replace(/^\/+/, '')}")`;
  if (scheme !== 'http' && scheme !== 'https') return `an http:// or https:// URL, not ${scheme}://`;
  try {
    new URL(text);
    return undefined;
  } catch {
    return 'an http:// or https:// URL with a valid host (e.g. https://api.example.com/v1)';
  }
}

/** An http:// or https:// URL (model endpoints, platform API roots); a missing or other scheme is named in the error. */
export function httpUrl(): z.ZodString {
  return z
    .string()
    .min(1)
    .superRefine((value, ctx) => {
      const problem = httpUrlProblem({ text: value });
      if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, input: value });
    });
}

/** An optional http(s) URL; an empty string (e.g. from `${VAR:-}`) counts as not set. */
export function optionalHttpUrl(): z.ZodOptional<z.ZodType<string | undefined, unknown>> {
  return z.preprocess((value) => (value === '' || value === null ? undefined : value), httpUrl().optional()).optional();
}

/**
 * A platform user id. Unquoted YAML ids arrive as numbers: safe integers are turned back into text;
 * anything larger (e.g. Discord snowflakes, which lose digits) must be quoted and is rejected.
 */
export function userId(): z.ZodType<string, unknown> {
  return z.preprocess((value) => (Number.isSafeInteger(value) ? String(value) : value), z.string().min(1));
}

/** Fields every platform block has. A platform is enabled ONLY by `enabled: true`, never by a token alone. */
export const platformCommon = {
  /** Turn the platform on. */
  enabled: bool().default(false),
  /** Platform user ids allowed to talk to the agent. */
  allowed_users: z.array(userId()).default([]),
};
