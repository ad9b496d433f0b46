/** The text of something thrown: an Error's message, anything else as String() makes it. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The `code` of a thrown Error as text (an errno name such as ENOENT), 'unknown error' when it has none. */
export function errorCodeText(error: unknown): string {
  return error instanceof Error && 'code' in error ? String(error.code) : 'unknown error';
}

/** A field of a parsed JSON answer as text: a string or number as written, anything else (absent, an object) the fallback. */
export function scalarText(params: { value: unknown; fallback: string }): string {
  const { value } = params;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : params.fallback;
}
