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

/** The host's zone per value of TZ (asking Intl builds a formatter each time; a prompt asks per session). */
const hostZones = new Map<string, string>();

/** The host's own time zone (what `timezone` means when config.yaml leaves it out). */
export function hostTimeZone(): string {
  const key = process.env['TZ'] ?? '';
  let zone = hostZones.get(key);
  if (zone === undefined) {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
    hostZones.set(key, zone);
  }
  return zone;
}

/** The zone a profile's times are in: config.yaml's `timezone`, else the host's (asked when called: ICU's zone data loads then). */
export function profileTimeZone(params: { config: { readonly timezone?: string | undefined } }): string {
  return params.config.timezone ?? hostTimeZone();
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
