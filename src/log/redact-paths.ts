/** Key names whose values pino censors wherever they appear (top level and two levels down). */
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

/** Header names that carry credentials. */
const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-twilio-signature', 'x-slack-signature'];

/** pino `redact.paths`: secret keys at depth 0-2 and credential headers of any logged request/response. */
export const REDACT_PATHS: readonly string[] = [
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
  ...SECRET_HEADERS.flatMap((header) => [`headers["${header}"]`, `*.headers["${header}"]`]),
];
