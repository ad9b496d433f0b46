import { z } from 'zod';
import { duration, httpUrl, optionalHttpUrl, optionalString, size, userId, platformCommon } from '../../src/util/config-fields.js';

/** platforms.telegram */
export const telegramSchema = z
  .strictObject({
    ...platformCommon,
    token: optionalString(),
    api_root: httpUrl().default('https://api.telegram.org'),
    mode: z.enum(['polling', 'webhook']).default('polling'),
    webhook: z
      .strictObject({
        url: optionalHttpUrl(),
        path: z.string().startsWith('/').default('/telegram/webhook'),
        secret_token: optionalString(),
      })
      .prefault({}),
    unauthorized: z.enum(['pair', 'ignore']).default('pair'),
    free_response_chats: z.array(userId()).default([]),
    edited_messages: z.enum(['ignore', 'new_turn']).default('ignore'),
    max_file_size: size({ defaultValue: '20m' }),
    merge_window: duration({ defaultValue: '1s' }),
    group_interval: duration({ defaultValue: '3s' }),
  })
  .superRefine((block, ctx) => {
    if (!block.enabled) return;
    if (block.token === undefined) {
      ctx.addIssue({ code: 'custom', path: ['token'], message: 'a bot token from @BotFather (required when enabled: true)' });
    }
    if (block.mode === 'webhook' && block.webhook.url === undefined) {
      ctx.addIssue({ code: 'custom', path: ['webhook', 'url'], message: 'the public https URL Telegram posts updates to (required in webhook mode)' });
    }
    if (block.mode === 'webhook' && (block.webhook.secret_token === undefined || !/^[A-Za-z0-9_-]{16,256}$/.test(block.webhook.secret_token))) {
      ctx.addIssue({
        code: 'custom',
        path: ['webhook', 'secret_token'],
        message: '16-256 characters of A-Z, a-z, 0-9, _ and - (required in webhook mode; Telegram sends it back on every request)',
      });
    }
  })
  .prefault({});

/** What `platforms.telegram` holds once validated. */
export type TelegramConfig = z.output<typeof telegramSchema>;
