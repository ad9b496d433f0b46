import { ChannelType, type APIInteractionGuildMember, type GuildMember, type Message } from 'discord.js';
import type { ChatRef, MessageEvent } from '../../src/core/adapter.js';
import { mayContinue } from '../kit/burst.js';

/** Discord's text limit for one message (without Nitro). */
const textLimit = 2000;

/** How the adapter treats guild channels. */
export interface DiscordInboundPolicy {
  readonly freeResponseChannels: readonly string[];
  readonly allowedChannels: readonly string[];
  readonly ignoredChannels: readonly string[];
  /** Threads the bot opened answer every message (auto_thread). */
  readonly autoThread: boolean;
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
  const closed = channelSkipReason({ dm, channelId, ruleChannel, policy });
  if (closed !== undefined) return { kind: 'skip', reason: closed };
  const mentioned = message.mentions.users.has(botId) || message.mentions.repliedUser?.id === botId;
  // With auto_thread, the threads the bot opened continue a conversation: no mention needed there.
  const ownThread = policy.autoThread && message.channel.isThread() && message.channel.ownerId === botId;
  const free = ownThread || policy.freeResponseChannels.includes(ruleChannel) || policy.freeResponseChannels.includes(channelId);
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
      sender: {
        id: author.id, name: author.globalName ?? author.username, username: author.username, isBot: author.bot,
        ...(message.member ? { roles: memberRoles({ member: message.member }) } : {}),
      },
      text,
      ...(message.reference?.messageId ? { replyToId: message.reference.messageId } : {}),
      mentioned: dm || mentioned,
      receivedAt: params.now,
      // A text near the limit may be one part of a split paste: the gateway waits its merge window for the rest.
      continues: mayContinue({ text: message.content, limit: textLimit }),
    },
  };
}

/** Why the channel rules close a guild channel to the bot (ignored, not allowed), or undefined when open. */
export function channelSkipReason(params: { dm: boolean; channelId: string; ruleChannel: string; policy: DiscordInboundPolicy }): string | undefined {
  const { dm, channelId, ruleChannel, policy } = params;
  if (dm) return undefined;
  if (policy.ignoredChannels.includes(ruleChannel) || policy.ignoredChannels.includes(channelId)) return 'ignored channel';
  if (policy.allowedChannels.length > 0 && !policy.allowedChannels.includes(ruleChannel) && !policy.allowedChannels.includes(channelId)) {
    return 'channel not in allowed_channels';
  }
  return undefined;
}

/** A guild member's role ids (the guild id stands for @everyone), for `role:<id>` allowlist entries. */
export function memberRoles(params: { member: GuildMember | APIInteractionGuildMember }): string[] {
  const { member } = params;
  if ('guild' in member) return [...member.roles.cache.keys()];
  return member.roles;
}
