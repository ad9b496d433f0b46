import type { DiscordConfig } from './config-schema.js';
import type { PlatformFactory } from '../../src/core/platform.js';
import { defaultTurnReactions } from '../../src/core/platform.js';
import { DiscordAdapter } from './adapter.js';

/** Builds the Discord adapter entry from `platforms.discord`. */
export const discordFactory: PlatformFactory<DiscordConfig> = ({ config: discord, cacheDir, clock, logger }) => {
  return {
    adapter: new DiscordAdapter({ config: discord, cacheDir: cacheDir, clock, logger }),
    // Role members pass the gateway's allowlist through `role:<id>` entries (the adapter puts roles on the sender).
    allow: [...discord.allowed_users, ...discord.allowed_roles.map((role) => `role:${role}`)],
    unauthorized: discord.unauthorized,
    mergeWindowMs: discord.merge_window,
    ...(discord.reactions ? { reactions: defaultTurnReactions } : {}),
  };
};
