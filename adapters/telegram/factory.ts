import type { PlatformFactory } from '../../src/app/platforms.js';
import { TelegramAdapter } from './adapter.js';
import { skillMenuCommands } from './commands-menu.js';

/** Builds the Telegram adapter entry from `platforms.telegram`. */
export const telegramFactory: PlatformFactory = ({ config, profile, clock, logger }) => {
  const telegram = config.platforms.telegram;
  return {
    adapter: new TelegramAdapter({ config: telegram, cacheDir: profile.cacheDir, clock, logger, menuExtras: () => skillMenuCommands({ dir: profile.skillsDir }) }),
    allow: telegram.allowed_users,
    unauthorized: telegram.unauthorized,
    mergeWindowMs: telegram.merge_window,
  };
};
