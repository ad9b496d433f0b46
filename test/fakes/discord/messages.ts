import { memberJson, userJson } from './payloads.js';
import type { DiscordState } from './state.js';
import type { Json, MessageCreateOptions, UserSpec } from './types.js';

/** An attachment as it appears in a message object, with the bytes it serves. */
export interface AttachmentInput {
  /** Attachment id. */
  id: string;
  /** File name. */
  name: string;
  /** File bytes. */
  bytes: Buffer;
  /** MIME type. */
  contentType: string;
}

/** Stores the bytes behind a download URL and returns the attachment object pointing at it. */
export function attachmentJson(params: {
  state: DiscordState; baseUrl: string; channelId: string; file: AttachmentInput;
}): Json {
  const { file } = params;
  const path = `/attachments/${params.channelId}/${file.id}/${encodeURIComponent(file.name)}`;
  params.state.files.set(path, { bytes: file.bytes, contentType: file.contentType });
  const url = `${params.baseUrl}${path}`;
  return {
    id: file.id, filename: file.name, size: file.bytes.length, url, proxy_url: url, content_type: file.contentType,
  };
}

/** A full message object as Discord returns it from REST and in MESSAGE_CREATE. */
export function messageJson(params: {
  state: DiscordState; id: string; channelId: string; author: UserSpec; content: string;
  mentions?: UserSpec[]; attachments?: Json[]; embeds?: unknown[]; referencedMessageId?: string;
}): Json {
  const { state } = params;
  const guildId = state.guildOf({ channelId: params.channelId });
  const referenced = params.referencedMessageId ? state.messages.get(params.referencedMessageId) : undefined;
  const message: Json = {
    id: params.id,
    type: params.referencedMessageId ? 19 : 0,
    channel_id: params.channelId,
    author: userJson({ user: params.author }),
    content: params.content,
    timestamp: state.isoNow(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: (params.mentions ?? []).map((user) => userJson({ user })),
    mention_roles: [],
    attachments: params.attachments ?? [],
    embeds: params.embeds ?? [],
    components: [],
    pinned: false,
    flags: 0,
  };
  if (guildId) message['guild_id'] = guildId;
  if (params.referencedMessageId) {
    message['message_reference'] = {
      type: 0, message_id: params.referencedMessageId, channel_id: params.channelId, ...(guildId ? { guild_id: guildId } : {}),
    };
    message['referenced_message'] = referenced ?? null;
  }
  return message;
}

/** Builds and stores a user's MESSAGE_CREATE payload (with member, channel_type and downloadable attachments). */
export function incomingMessage(params: { state: DiscordState; baseUrl: string; options: MessageCreateOptions }): Json {
  const { state, options } = params;
  const channel = state.channels.get(options.channelId);
  if (!channel) throw new Error(`FakeDiscord: unknown channel ${options.channelId}; configure it in guilds or call openDm() first`);
  state.rememberUser({ user: options.author });
  for (const user of options.mentions ?? []) state.rememberUser({ user });
  const attachments = (options.attachments ?? []).map((file) => attachmentJson({
    state, baseUrl: params.baseUrl, channelId: options.channelId,
    file: { id: state.nextId(), name: file.name, bytes: file.bytes, contentType: file.contentType ?? 'application/octet-stream' },
  }));
  const message = messageJson({
    state, id: state.nextId(), channelId: options.channelId, author: options.author, content: options.content,
    attachments,
    ...(options.mentions ? { mentions: options.mentions } : {}),
    ...(options.referencedMessageId ? { referencedMessageId: options.referencedMessageId } : {}),
  });
  const guildId = options.guildId ?? state.guildOf({ channelId: options.channelId });
  if (guildId) {
    message['guild_id'] = guildId;
    const member = memberJson({ user: options.author, joinedAt: state.isoNow() });
    delete member['user'];
    member['roles'] = options.roles ?? [];
    message['member'] = member;
  }
  message['channel_type'] = channel['type'];
  state.messages.set(message['id'] as string, message);
  channel['last_message_id'] = message['id'];
  return message;
}
