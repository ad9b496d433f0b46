import { z } from 'zod';
import { bool, duration, httpUrl, optionalString, size, userId, platformCommon } from '../../src/util/config-fields.js';

/** platforms.discord */
export const discordSchema = z
  .strictObject({
    ...platformCommon,
    token: optionalString(),
    api_url: httpUrl().default('https://discord.com/api'),
    unauthorized: z.enum(['pair', 'ignore']).default('pair'),
    free_response_channels: z.array(userId()).default([]),
    allowed_channels: z.array(userId()).default([]),
    ignored_channels: z.array(userId()).default([]),
    allowed_roles: z.array(userId()).default([]),
    auto_thread: z.boolean().default(false),
    reactions: bool().default(false),
    max_file_size: size({ defaultValue: '10m' }),
    merge_window: duration({ defaultValue: '1s' }),
  })
  .superRefine((block, ctx) => {
    if (block.enabled && block.token === undefined) {
      ctx.addIssue({ code: 'custom', path: ['token'], message: 'a bot token from the Discord developer portal (required when enabled: true)' });
    }
  })
  .prefault({});

/** What `platforms.discord` holds once validated. */
export type DiscordConfig = z.output<typeof discordSchema>;
