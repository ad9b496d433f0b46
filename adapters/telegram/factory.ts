import type { TelegramConfig } from './config-schema.js';
import type { PlatformFactory } from '../../src/core/platform.js';
import { TelegramAdapter } from './adapter.js';
import { skillMenuCommands } from './commands-menu.js';

/** Builds the Telegram adapter entry from `platforms.telegram`. */
export const telegramFactory: PlatformFactory<TelegramConfig> = ({ config: telegram, cacheDir, skillCommands, clock, logger }) => {
  return {
    adapter: new TelegramAdapter({ config: telegram, cacheDir, clock, logger, menuExtras: () => skillMenuCommands({ skills: skillCommands() }) }),
    allow: telegram.allowed_users,
    unauthorized: telegram.unauthorized,
    mergeWindowMs: telegram.merge_window,
  };
};
