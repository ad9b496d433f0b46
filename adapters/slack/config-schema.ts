import { z } from 'zod';
import { bool, duration, httpUrl, optionalString, size, platformCommon } from '../../src/util/config-fields.js';

/** platforms.slack */
export const slackSchema = z
  .strictObject({
    ...platformCommon,
    bot_token: optionalString(),
    app_token: optionalString(),
    signing_secret: optionalString(),
    mode: z.enum(['socket', 'http']).default('socket'),
    api_url: httpUrl().default('https://slack.com/api/'),
    events_path: z.string().startsWith('/').default('/slack/events'),
    reply_in_thread: bool().default(true),
    strict_mention: bool().default(false),
    allowed_bots: z.array(z.string()).default([]),
    unauthorized: z.enum(['pair', 'ignore']).default('pair'),
    max_file_size: size({ defaultValue: '20m' }),
    merge_window: duration({ defaultValue: '1s' }),
    liveness_timeout: duration({ defaultValue: '30s', minMs: 1000 }),
  })
  .superRefine((block, ctx) => {
    if (!block.enabled) return;
    if (block.bot_token === undefined) ctx.addIssue({ code: 'custom', path: ['bot_token'], message: 'the bot token (xoxb-...) (required when enabled: true)' });
    if (block.mode === 'socket' && block.app_token === undefined) {
      ctx.addIssue({ code: 'custom', path: ['app_token'], message: 'an app-level token (xapp-...) with connections:write (required in socket mode)' });
    }
    if (block.mode === 'http' && block.signing_secret === undefined) {
      ctx.addIssue({ code: 'custom', path: ['signing_secret'], message: "the app's signing secret (required in http mode)" });
    }
  })
  .prefault({});

/** What `platforms.slack` holds once validated. */
export type SlackConfig = z.output<typeof slackSchema>;
