import { z } from 'zod';

/** True when `zone` is an IANA time zone name this Node knows (e.g. "Europe/Berlin", "UTC"). */
export function isTimeZone(params: { zone: string }): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: params.zone });
    return true;
  } catch {
    return false;
  }
}

/** The host's own time zone (what `timezone` means when config.yaml leaves it out). */
export function hostTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** `timezone`: an optional IANA zone name, checked against the runtime's zone database. */
export function timeZone(): z.ZodOptional<z.ZodType<string | undefined, unknown>> {
  return z
    .preprocess(
      (value) => (value === '' || value === null ? undefined : value),
      z
        .string()
        .refine((zone) => isTimeZone({ zone }), { message: 'an IANA time zone name such as "Europe/Berlin", "America/New_York" or "UTC"' })
        .optional(),
    )
    .optional();
}
