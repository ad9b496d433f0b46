/** Share of a platform's text limit past which a message may be one part of a text the client split. */
export const NEAR_LIMIT_SHARE = 0.8;

/**
 * Whether more parts of this message may follow within moments, so the gateway should wait its merge window:
 * a part of an album (a media group), or a text near the platform's length limit (the client may have split a long
 * paste). A lone short message is answered at once.
 */
export function mayContinue(params: { text: string; limit: number; grouped?: boolean }): boolean {
  return params.grouped === true || params.text.length >= NEAR_LIMIT_SHARE * params.limit;
}
