import type { ChannelSpec, GuildSpec, Json, UserSpec } from './types.js';

/** Permissions the bot's @everyone role grants: everything except Administrator, as a decimal string. */
const EVERYONE_PERMISSIONS = ((1n << 47n) - 1n - 8n).toString();

/** A Discord user object. */
export function userJson(params: { user: UserSpec }): Json {
  const { user } = params;
  return {
    id: user.id,
    username: user.username,
    discriminator: '0',
    global_name: user.globalName ?? user.username,
    avatar: null,
    bot: user.bot ?? false,
    public_flags: 0,
  };
}

/** A guild channel object. */
export function guildChannelJson(params: { channel: ChannelSpec; guildId: string; position: number }): Json {
  const { channel } = params;
  return {
    id: channel.id,
    type: channel.type,
    guild_id: params.guildId,
    name: channel.name,
    position: params.position,
    permission_overwrites: [],
    parent_id: null,
    nsfw: false,
    topic: null,
    last_message_id: null,
    rate_limit_per_user: 0,
    flags: 0,
  };
}

/** A DM channel object with one recipient. */
export function dmChannelJson(params: { id: string; recipient: UserSpec }): Json {
  return { id: params.id, type: 1, last_message_id: null, flags: 0, recipients: [userJson({ user: params.recipient })] };
}

/** A thread channel object (type 11 public, 12 private). */
export function threadJson(params: {
  id: string; parent: Json; name: string; type: number; ownerId: string; autoArchive: number; createdAt: string;
}): Json {
  return {
    id: params.id,
    type: params.type,
    guild_id: params.parent['guild_id'],
    parent_id: params.parent['id'],
    owner_id: params.ownerId,
    name: params.name,
    last_message_id: null,
    rate_limit_per_user: 0,
    message_count: 0,
    member_count: 1,
    flags: 0,
    thread_metadata: {
      archived: false,
      auto_archive_duration: params.autoArchive,
      archive_timestamp: params.createdAt,
      locked: false,
      create_timestamp: params.createdAt,
    },
    member: { id: params.id, user_id: params.ownerId, join_timestamp: params.createdAt, flags: 0 },
  };
}

/** A guild member object for `user`. */
export function memberJson(params: { user: UserSpec; joinedAt: string }): Json {
  return {
    user: userJson({ user: params.user }),
    nick: null,
    roles: [],
    joined_at: params.joinedAt,
    deaf: false,
    mute: false,
    flags: 0,
  };
}

/** The GUILD_CREATE payload for one guild: channels, the @everyone role and the bot as its only member. */
export function guildCreateJson(params: { guild: GuildSpec; bot: UserSpec; joinedAt: string }): Json {
  const { guild } = params;
  return {
    id: guild.id,
    name: guild.name,
    icon: null,
    owner_id: '1',
    afk_channel_id: null,
    afk_timeout: 300,
    verification_level: 0,
    default_message_notifications: 0,
    explicit_content_filter: 0,
    mfa_level: 0,
    system_channel_id: null,
    features: [],
    emojis: [],
    stickers: [],
    roles: [
      {
        id: guild.id, name: '@everyone', color: 0, hoist: false, position: 0,
        permissions: EVERYONE_PERMISSIONS, managed: false, mentionable: false, flags: 0,
      },
      ...(guild.roles ?? []).map((role, index) => ({
        id: role.id, name: role.name, color: 0, hoist: false, position: index + 1,
        permissions: '0', managed: false, mentionable: false, flags: 0,
      })),
    ],
    channels: guild.channels.map((channel, position) => guildChannelJson({ channel, guildId: guild.id, position })),
    threads: [],
    members: [memberJson({ user: params.bot, joinedAt: params.joinedAt })],
    member_count: 1,
    presences: [],
    voice_states: [],
    stage_instances: [],
    guild_scheduled_events: [],
    large: false,
    unavailable: false,
    joined_at: params.joinedAt,
    preferred_locale: 'en-US',
    nsfw_level: 0,
    premium_tier: 0,
  };
}
