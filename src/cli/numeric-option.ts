import { UserFacingError } from '../core/errors.js';

/** sysexits EX_USAGE: the command line is wrong. */
export const USAGE_EXIT_CODE = 64;

/**
 * A positive whole number given on the command line (`-n 50`), at most `max` (larger ones are capped). Anything
 * else (`-n abc`, `-n 0`, `-n 5x`) is an error with exit 64 instead of a silent default.
 */
export function positiveOption(params: { text: string; option: string; max: number }): number {
  const { text, option, max } = params;
  const n = /^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new UserFacingError({ message: `${option}: expected a whole number from 1 to ${max}, found ${JSON.stringify(text)}`, hint: 'Run the command with --help for its options.', exitCode: USAGE_EXIT_CODE });
  }
  return Math.min(n, max);
}
