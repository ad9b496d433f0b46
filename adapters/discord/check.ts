import { describeNetworkError, hostOf } from '../kit/net-error.js';
import { scalarText } from '../../src/util/error-text.js';
import type { CredentialCheck } from '../../src/core/platform-descriptor.js';
import type { DiscordConfig } from './config-schema.js';

/** The REST API version discord.js uses (its `rest.api` + /v10). */
const API_VERSION = '10';

/** `hermes doctor`: GET /users/@me with platforms.discord.token against platforms.discord.api_url (as the adapter does). */
export const discordCredentialCheck: CredentialCheck<DiscordConfig> = async ({ config, signal }) => {
  const { token, api_url: apiUrl } = config;
  if (token === undefined) return { ok: false, detail: 'platforms.discord.token is not set', hint: 'Set it to the bot token from the Discord developer portal (Bot → Reset Token).' };
  try {
    const response = await fetch(`${apiUrl.replace(/\/+$/, '')}/v${API_VERSION}/users/@me`, { headers: { authorization: `Bot ${token}` }, signal });
    if (response.status === 401) {
      return { ok: false, detail: 'Discord rejected the bot token (401 Unauthorized)', hint: 'Reset the token in the developer portal (Bot → Reset Token) and update platforms.discord.token.' };
    }
    if (!response.ok) return { ok: false, detail: `GET /users/@me answered HTTP ${response.status}`, hint: 'Try again later; see https://discordstatus.com.' };
    const me = (await response.json()) as { username?: unknown; id?: unknown };
    return { ok: true, detail: `bot ${scalarText({ value: me.username, fallback: '?' })} (id ${scalarText({ value: me.id, fallback: '?' })})` };
  } catch (error) {
    return { ok: false, detail: describeNetworkError({ error, signal, what: hostOf(apiUrl) }), hint: `Check the network, or platforms.discord.api_url (${apiUrl}).` };
  }
};
