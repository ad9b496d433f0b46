import type { Json } from './types.js';

/** Gateway intent bits the fake enforces. */
export const Intent = {
  Guilds: 1 << 0,
  GuildMessages: 1 << 9,
  DirectMessages: 1 << 12,
  MessageContent: 1 << 15,
} as const;

/** How a message event reaches a session: the intent it needs and the payload that session sees. */
export interface MessageDelivery {
  /** Required intent bit. */
  intent: number;
  /** The payload for a session with `intents`. */
  view: (params: { intents: number }) => Json;
}

/**
 * Discord's intent rules for MESSAGE_* events: guild messages need GUILD_MESSAGES, DMs need DIRECT_MESSAGES,
 * and without MESSAGE_CONTENT a guild message that neither mentions the bot nor is the bot's own arrives with
 * empty content, embeds, attachments and components.
 */
export function messageDelivery(params: { message: Json; botId: string }): MessageDelivery {
  const { message, botId } = params;
  const inGuild = typeof message['guild_id'] === 'string';
  const author = message['author'];
  const own = typeof author === 'object' && author !== null && (author as Json)['id'] === botId;
  const mentions = Array.isArray(message['mentions']) ? (message['mentions'] as unknown[]) : [];
  const mentioned = mentions.some((user) => typeof user === 'object' && user !== null && (user as Json)['id'] === botId);
  const keepsContent = !inGuild || own || mentioned;
  return {
    intent: inGuild ? Intent.GuildMessages : Intent.DirectMessages,
    view: ({ intents }) => {
      if (keepsContent || (intents & Intent.MessageContent) !== 0 || !('content' in message)) return message;
      return { ...message, content: '', embeds: [], attachments: [], components: [] };
    },
  };
}
