/** Checks setup questions share: each returns what is wrong with a value, or undefined. */
export const setupChecks = {
  /** Anything but blank. */
  notEmpty:
    (what: string) =>
    (value: string): string | undefined =>
      value.trim() === '' ? `${what} is needed` : undefined,
  /** A TCP port. */
  port: (value: string): string | undefined => (/^\d{1,5}$/.test(value) && Number(value) >= 1 && Number(value) <= 65535 ? undefined : 'a port number, 1-65535'),
  /** An http(s) URL. */
  url: (value: string): string | undefined => (/^https?:\/\/[^/?#\s]+/i.test(value) ? undefined : 'an http(s) URL'),
};
