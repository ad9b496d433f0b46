import { GrammyError } from 'grammy';
import { AdapterFatalError, RateLimitError } from '../../src/core/errors.js';

/** What a failed Bot API call means to the adapter. */
export type TelegramFailure =
  | { readonly kind: 'rate-limited'; readonly error: RateLimitError }
  | { readonly kind: 'not-modified' }
  | { readonly kind: 'bad-markup' }
  | { readonly kind: 'conflict'; readonly description: string }
  | { readonly kind: 'unauthorized'; readonly error: AdapterFatalError }
  | { readonly kind: 'other'; readonly error: unknown };

/** Sorts a thrown value from a grammy call into the cases the adapter handles differently. */
export function classifyTelegramError(params: { error: unknown; method: string }): TelegramFailure {
  const { error, method } = params;
  if (!(error instanceof GrammyError)) return { kind: 'other', error };
  const description = error.description;
  if (error.error_code === 429) {
    const retryAfterS = error.parameters.retry_after ?? 1;
    return { kind: 'rate-limited', error: new RateLimitError({ retryAfterMs: retryAfterS * 1000, method, message: `Telegram ${method}: ${description}` }) };
  }
  if (error.error_code === 400 && /message is not modified/i.test(description)) return { kind: 'not-modified' };
  if (error.error_code === 400 && /can't parse entities|unsupported start tag|can't find end tag/i.test(description)) return { kind: 'bad-markup' };
  if (error.error_code === 409) return { kind: 'conflict', description };
  if (error.error_code === 401 || error.error_code === 404) {
    return {
      kind: 'unauthorized',
      error: new AdapterFatalError({
        message: `Telegram rejected the bot token (${error.error_code} ${description})`,
        hint: 'Check platforms.telegram.token (from @BotFather) in the profile .env / config.yaml, then restart the gateway.',
        cause: error,
      }),
    };
  }
  return { kind: 'other', error };
}
