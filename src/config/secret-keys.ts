/** Words that make a key name look like it holds a secret. */
const SECRET_WORDS = new Set([
  'token',
  'key',
  'keys',
  'apikey',
  'apikeys',
  'secret',
  'password',
  'passwd',
  'auth',
  'authorization',
  'credential',
  'credentials',
  'cookie',
]);

/**
 * Names with a secret-looking word that hold no secret: how keys are chosen (not a key), the host name whose
 * Authentication-Results are trusted (the one value needed to debug sender checks).
 */
const NOT_SECRET = new Set(['key_strategy', 'trusted_auth_server']);

/**
 * True when a key name looks like it holds a secret (token, key, secret, password, auth...).
 * Matches whole words of snake_case, kebab-case and camelCase names, so `bot_token` and `apiKey`
 * are secret but `max_tokens` is not.
 */
export function looksSecretKey(params: { key: string | number }): boolean {
  if (typeof params.key === 'number' || NOT_SECRET.has(params.key)) return false;
  const words = params.key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  return words.some((word) => SECRET_WORDS.has(word));
}

/** True when any segment of a key path looks secret (so `headers.authorization.scheme` counts too). */
export function looksSecretPath(params: { path: readonly PropertyKey[] }): boolean {
  return params.path.some((key) => typeof key === 'string' && looksSecretKey({ key }));
}

/** Formats a key path as people write it: `platforms.telegram.allowed_users[0]`. */
export function formatKeyPath(params: { path: readonly PropertyKey[] }): string {
  let out = '';
  for (const key of params.path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(top level)' : out;
}
