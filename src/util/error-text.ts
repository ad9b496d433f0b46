/** The text of something thrown: an Error's message, anything else as String() makes it. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The `code` of a thrown Error as text (an errno name such as ENOENT), 'unknown error' when it has none. */
export function errorCodeText(error: unknown): string {
  return error instanceof Error && 'code' in error ? String(error.code) : 'unknown error';
}
