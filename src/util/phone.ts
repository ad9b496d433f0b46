/** E.164: a plus, a country code that does not start with 0, at most 15 digits in all. */
const E164 = /^\+[1-9]\d{6,14}$/;

/** Separators people write inside phone numbers: spaces, dashes, dots and parentheses. */
const SEPARATORS = /[\s\-.()\u00a0]/g;

/**
 * A phone number in E.164 form ("+15551234567") with the separators people type removed
 * ("+1 (555) 123-4567" → "+15551234567"); undefined when it is not one (no leading +, letters, too short or long).
 */
export function normalizePhone(params: { value: string }): string | undefined {
  const compact = params.value.replace(SEPARATORS, '');
  return E164.test(compact) ? compact : undefined;
}

/**
 * A phone number as logs show it: country code and area kept, the middle hidden, the last four digits kept
 * ("+15551234567" → "+1555***4567", "whatsapp:+15551234567" → "whatsapp:+1555***4567"). Short numbers keep
 * only their last two digits; anything that is not a number is hidden whole.
 */
export function maskPhone(params: { phone: string }): string {
  const match = /^([a-z]+:)?(\+?)(\d+)$/i.exec(params.phone.trim());
  if (match === null) return params.phone.trim() === '' ? '' : '***';
  const [, scheme = '', plus = '', digits = ''] = match;
  if (digits.length < 8) return `${scheme}${plus}***${digits.slice(-2)}`;
  return `${scheme}${plus}${digits.slice(0, 4)}***${digits.slice(-4)}`;
}
