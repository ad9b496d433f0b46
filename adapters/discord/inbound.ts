import { ChannelType, type Message } from 'discord.js';
import type { ChatRef, MessageEvent } from '../../src/gateway/contracts.js';

/** How the adapter treats guild channels. */
export interface DiscordInboundPolicy {
  readonly freeResponseChannels: readonly string[];
  readonly allowedChannels: readonly string[];
  readonly ignoredChannels: readonly string[];
}

/** An attachment of a Discord message, not yet downloaded. */
export interface DiscordFileRef {
  readonly url: string;
  readonly name: string;
  readonly size: number;
  readonly contentType?: string;
}

/** What one Discord message means to the gateway. */
export type DiscordRead =
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'message'; readonly event: Omit<MessageEvent, 'media'>; readonly files: readonly DiscordFileRef[] };

/** Turns a discord.js message into a gateway message (attachments still to download), or says why it is skipped. */
export function readMessage(params: { message: Message; botId: string; policy: DiscordInboundPolicy; now: number }): DiscordRead {
  const { message, botId, policy } = params;
  if (message.author.id === botId) return { kind: 'skip', reason: 'own message' };
  if (message.system) return { kind: 'skip', reason: 'system message' };
  const dm = message.channel.type === ChannelType.DM;
  const channelId = message.channelId;
  // Threads are channels of their own; their parent decides the channel rules.
  const ruleChannel = message.channel.isThread() ? (message.channel.parentId ?? channelId) : channelId;
  if (!dm) {
    if (policy.ignoredChannels.includes(ruleChannel) || policy.ignoredChannels.includes(channelId)) return { kind: 'skip', reason: 'ignored channel' };
    if (policy.allowedChannels.length > 0 && !policy.allowedChannels.includes(ruleChannel) && !policy.allowedChannels.includes(channelId)) {
      return { kind: 'skip', reason: 'channel not in allowed_channels' };
    }
  }
  const mentioned = message.mentions.users.has(botId) || message.mentions.repliedUser?.id === botId;
  const free = policy.freeResponseChannels.includes(ruleChannel) || policy.freeResponseChannels.includes(channelId);
  if (!dm && !mentioned && !free) return { kind: 'skip', reason: 'guild message not addressed to the bot' };
  const files: DiscordFileRef[] = [...message.attachments.values()].map((a) => ({
    url: a.url,
    name: a.name,
    size: a.size,
    ...(a.contentType ? { contentType: a.contentType } : {}),
  }));
  const text = message.content.replace(new RegExp(`<@!?${botId}>`, 'g'), '').replace(/[ \t]{2,}/g, ' ').trim();
  if (text === '' && files.length === 0) return { kind: 'skip', reason: 'nothing the agent can read' };
  const chat: ChatRef = { id: channelId, kind: dm ? 'dm' : 'channel' };
  const author = message.author;
  return {
    kind: 'message',
    files,
    event: {
      platform: 'discord',
      messageId: message.id,
      chat,
      sender: { id: author.id, name: author.globalName ?? author.username, username: author.username, isBot: author.bot },
      text,
      ...(message.reference?.messageId ? { replyToId: message.reference.messageId } : {}),
      mentioned: dm || mentioned,
      receivedAt: params.now,
      continues: true,
    },
  };
}
