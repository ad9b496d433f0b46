/** Key names whose values are censored in log lines wherever they appear (compared in lower case). */
const SECRET_KEYS = [
  'token',
  'api_key',
  'apiKey',
  'password',
  'secret',
  'authorization',
  'bot_token',
  'botToken',
  'app_token',
  'appToken',
  'signing_secret',
  'signingSecret',
  'auth_token',
  'authToken',
  'access_token',
  'accessToken',
  'refresh_token',
  'refreshToken',
  'client_secret',
  'clientSecret',
];

/** Header names that carry credentials (censored as keys anywhere, like the names above). */
const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-twilio-signature', 'x-slack-signature'];

const censoredKeys: ReadonlySet<string> = new Set([...SECRET_KEYS, ...SECRET_HEADERS].map((key) => key.toLowerCase()));

/** Deeper than this a logged value is left as it is (the value scrubber still sees it). */
const MAX_DEPTH = 8;

/** Whether a key's value is censored in logs. */
export function isSecretKey(key: string): boolean {
  return censoredKeys.has(key.toLowerCase());
}

/**
 * `value` with the value of every secret-named key replaced by `censor`, at any depth of plain objects, arrays and
 * errors (an error keeps its class); a copy only where something was censored, the same object otherwise. Other
 * class instances are left alone. What pino's `redact` paths did for depths 0–2, in one walk: with 72 wildcard paths
 * pino's redaction cost ~0.15 ms per line (bench/README, issue 27's fourth session).
 */
export function censorSecretKeys<T>(params: { value: T; censor: string }): T {
  return censor(params.value, params.censor, 0) as T;
}

function censor(value: unknown, mask: string, depth: number): unknown {
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    const list: readonly unknown[] = value;
    let out: unknown[] | undefined;
    for (const [i, item] of list.entries()) {
      const next = censor(item, mask, depth + 1);
      if (next !== item) (out ??= [...list])[i] = next;
    }
    return out ?? list;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  const isError = value instanceof Error;
  if (!isError && proto !== Object.prototype && proto !== null) return value;
  let out: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const next = isSecretKey(key) && item !== undefined ? mask : censor(item, mask, depth + 1);
    if (next === item) continue;
    out ??= isError ? copyError(value) : { ...(value as Record<string, unknown>) };
    Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return out ?? value;
}

/** A copy of an error with its class, message, stack and own properties. */
function copyError(error: Error): Record<string, unknown> {
  const out = Object.create(Object.getPrototypeOf(error) as object | null) as Record<string, unknown>;
  for (const key of Reflect.ownKeys(error)) {
    const descriptor = Object.getOwnPropertyDescriptor(error, key);
    if (descriptor !== undefined) Object.defineProperty(out, key, descriptor);
  }
  return out;
}
