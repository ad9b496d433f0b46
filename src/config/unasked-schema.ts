import { z } from 'zod';
import { parseCheckInterval } from '../util/schedule/check-interval.js';
import { parseQuietHours } from '../util/schedule/quiet-hours.js';
import { bool, duration, markDuration, optionalString } from '../util/config-fields.js';

/**
 * The platform a heartbeat or check goes to (the home channel of one, set with /sethome): one of `platforms`, the
 * platforms config.yaml knows (buildConfigSchema passes the descriptors' names); any name when none are given.
 */
function targetPlatform(params: { platforms: readonly string[] }): z.ZodType<string, unknown> {
  const [first, ...rest] = params.platforms;
  return first === undefined ? z.string().min(1) : z.enum([first, ...rest]);
}

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
export const heartbeatSchemaFor = (params: { platforms: readonly string[] }) =>
  z
  .strictObject({
    enabled: bool().default(false),
    interval: duration({ defaultValue: '30m', minMs: 60_000 }),
    target: targetPlatform(params).optional(),
    quiet_hours: quietHours.optional(),
  })
  .superRefine((block, ctx) => {
    if (block.enabled && block.target === undefined) {
      ctx.addIssue({ code: 'custom', path: ['target'], message: 'the platform whose home channel gets the heartbeat (required when enabled: true)' });
    }
  })
  .prefault({});

/** One entry of `checks`: a command run on an interval whose output, when there is some, becomes a turn. */
const checkSchemaFor = (params: { platforms: readonly string[] }) =>
  z.strictObject({
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
  target: targetPlatform(params).optional(),
});

/** checks: cheap commands on intervals (no model call unless one prints something); names are unique. */
export const checksSchemaFor = (params: { platforms: readonly string[] }) =>
  z
  .array(checkSchemaFor(params))
  .superRefine((checks, ctx) => {
    const seen = new Set<string>();
    checks.forEach((check, index) => {
      if (seen.has(check.name)) ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `a name not used by another check ("${check.name}" is)` });
      seen.add(check.name);
    });
  })
  .default([]);

/** A check as the config gives it (interval in ms). */
export type CheckConfig = z.infer<ReturnType<typeof checkSchemaFor>>;

/** The heartbeat block as the config gives it (interval in ms). */
export type HeartbeatConfig = z.infer<ReturnType<typeof heartbeatSchemaFor>>;
