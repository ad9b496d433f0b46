import type { CredentialCheck } from '../../src/core/platform-descriptor.js';
import type { ApiConfig } from './config-schema.js';

/**
 * `hermes doctor`: the API has no remote account to ask; checks what would keep clients out (no keys, no HTTP
 * server) and says where it listens. Never throws.
 */
export const apiCredentialCheck: CredentialCheck<ApiConfig> = async ({ config: api, http }) => {
  if (api.keys.length === 0) return { ok: false, detail: 'platforms.api.keys is empty', hint: 'Add keys: [${HERMES_API_KEY}] and set HERMES_API_KEY in the profile .env (e.g. from `openssl rand -hex 32`).' };
  if (http === undefined) return { ok: true, detail: `${api.keys.length} key(s) (served on the gateway HTTP server)` };
  if (!http.enabled) return { ok: false, detail: 'the HTTP server is off (gateway.http.enabled: false)', hint: 'Set gateway.http.enabled: true: the API is served on the gateway HTTP server.' };
  const host = http.host.includes(':') ? `[${http.host}]` : http.host;
  const port = http.port === 0 ? '<any free port>' : String(http.port);
  return { ok: true, detail: `${api.keys.length} key(s); POST http://${host}:${port}/v1/chat/completions` };
};
