import type { PlatformFactory } from '../../src/app/platforms.js';
import { defaultTurnReactions } from '../../src/gateway/turns/reactions.js';
import { DiscordAdapter } from './adapter.js';

/** Builds the Discord adapter entry from `platforms.discord`. */
export const discordFactory: PlatformFactory = ({ config, profile, clock, logger }) => {
  const discord = config.platforms.discord;
  return {
    adapter: new DiscordAdapter({ config: discord, cacheDir: profile.cacheDir, clock, logger }),
    // Role members pass the gateway's allowlist through `role:<id>` entries (the adapter puts roles on the sender).
    allow: [...discord.allowed_users, ...discord.allowed_roles.map((role) => `role:${role}`)],
    unauthorized: discord.unauthorized,
    mergeWindowMs: discord.merge_window,
    ...(discord.reactions ? { reactions: defaultTurnReactions } : {}),
  };
};
