import { z } from 'zod';
import { parseCheckInterval } from '../util/schedule/check-interval.js';
import { parseQuietHours } from '../util/schedule/quiet-hours.js';
import { bool, duration, markDuration, optionalString } from '../util/config-fields.js';

/** Platforms a heartbeat or check may go to (the home channel of one, set with /sethome); a test keeps it equal to `platforms`. */
export const TARGET_PLATFORMS = ['telegram', 'slack', 'discord', 'email', 'sms', 'api'] as const;
const targetPlatform = z.enum(TARGET_PLATFORMS);

/** `heartbeat.quiet_hours`: "23:00-07:00" in `timezone`; unset means never quiet. */
const quietHours = z.preprocess(
  (value) => (value === '' || value === null ? undefined : value),
  z
    .string()
    .superRefine((text, ctx) => {
      const parsed = parseQuietHours({ text });
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.error, input: text });
    })
    .optional(),
);

/** heartbeat: a periodic turn over the profile's HEARTBEAT.md checklist, silent when the answer is HEARTBEAT_OK. */
export const heartbeatSchema = z
  .strictObject({
    enabled: bool().default(false),
    interval: duration({ defaultValue: '30m', minMs: 60_000 }),
    target: targetPlatform.optional(),
    quiet_hours: quietHours.optional(),
  })
  .superRefine((block, ctx) => {
    if (block.enabled && block.target === undefined) {
      ctx.addIssue({ code: 'custom', path: ['target'], message: 'the platform whose home channel gets the heartbeat (required when enabled: true)' });
    }
  })
  .prefault({});

/** One entry of `checks`: a command run on an interval whose output, when there is some, becomes a turn. */
const checkSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'a name of letters, digits, "-", "_" or "." (at most 64)'),
  command: z.string().min(1),
  interval: markDuration({
    schema: z.string().transform((text, ctx): number => {
      const parsed = parseCheckInterval({ text });
      if (parsed.ok) return parsed.everyMs;
      ctx.addIssue({ code: 'custom', message: parsed.error, input: text });
      return z.NEVER;
    }),
  }),
  once: bool().default(false),
  prompt: optionalString(),
  target: targetPlatform.optional(),
});

/** checks: cheap commands on intervals (no model call unless one prints something); names are unique. */
export const checksSchema = z
  .array(checkSchema)
  .superRefine((checks, ctx) => {
    const seen = new Set<string>();
    checks.forEach((check, index) => {
      if (seen.has(check.name)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `a name not used by another check ("${check.name}" is)` });
      seen.add(check.name);
    });
  })
  .default([]);

/** A check as the config gives it (interval in ms). */
export type CheckConfig = z.infer<typeof checkSchema>;

/** The heartbeat block as the config gives it (interval in ms). */
export type HeartbeatConfig = z.infer<typeof heartbeatSchema>;
