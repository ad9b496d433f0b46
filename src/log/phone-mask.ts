/** An E.164 phone number anywhere in a text: a plus, a country code not starting with 0, 7 to 15 digits. */
const PHONE_IN_TEXT = /(?<![\w+])\+([1-9]\d{6,14})(?!\d)/g;

/**
 * `text` with every E.164 phone number masked the way logs show them ("+15551234567" → "+1555***4567"):
 * SMS chat ids, session keys and sender ids are phone numbers, and a log must not be a list of them.
 */
export function maskPhonesInText(params: { text: string }): string {
  return params.text.replace(PHONE_IN_TEXT, (_match, digits: string) => `+${digits.slice(0, 4)}***${digits.slice(-4)}`);
}
