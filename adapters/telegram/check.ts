import { Api, GrammyError } from 'grammy';
import { describeNetworkError, hostOf } from '../kit/net-error.js';
import type { CredentialCheck } from '../../src/core/platform-descriptor.js';
import type { TelegramConfig } from './config-schema.js';
import { grammySignal } from './signal.js';

/** `hermes doctor`: getMe with platforms.telegram.token against platforms.telegram.api_root (as the adapter does). */
export const telegramCredentialCheck: CredentialCheck<TelegramConfig> = async ({ config, signal }) => {
  const { token, api_root: apiRoot } = config;
  if (token === undefined || token === '') {
    return { ok: false, detail: 'platforms.telegram.token is not set', hint: 'Get a token from @BotFather and set platforms.telegram.token (e.g. ${TELEGRAM_TOKEN} with the value in .env).' };
  }
  try {
    const me = await new Api(token, { apiRoot }).getMe(grammySignal(signal));
    return { ok: true, detail: `bot @${me.username} (id ${me.id})` };
  } catch (error) {
    if (error instanceof GrammyError && (error.error_code === 401 || error.error_code === 404)) {
      return {
        ok: false,
        detail: `Telegram rejected the bot token (${error.error_code} ${error.description})`,
        hint: 'The token is wrong or was revoked: get it again from @BotFather (/token) and update platforms.telegram.token.',
      };
    }
    if (error instanceof GrammyError) return { ok: false, detail: `getMe failed: ${error.error_code} ${error.description}`, hint: 'Try again later; if it persists, see https://core.telegram.org/bots/api.' };
    return { ok: false, detail: describeNetworkError({ error, signal, what: hostOf(apiRoot) }).split(token).join('***'), hint: `Check the network, or platforms.telegram.api_root (${apiRoot}).` };
  }
};
