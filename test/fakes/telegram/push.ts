import type { Chat, Message, Update, User } from 'grammy/types';
import { detectEntities } from './entities.js';
import type { FileKind } from './files.js';
import { mediaField } from './methods-media.js';
import type { ChatRecord, TelegramState } from './state.js';
import type { PushChat, PushMessageOptions, PushUser } from './types.js';

const MEDIA_KINDS: readonly FileKind[] = ['photo', 'document', 'voice', 'audio'];

/**
 * Builds a user's message (or an edit of one) exactly as Telegram would deliver it, stores it in its chat
 * and queues the update. Throws an Error naming the mistake when the options describe an impossible message.
 */
export function pushUserMessage(params: { state: TelegramState; options: PushMessageOptions }): Update {
  const { state, options } = params;
  const chat = state.ensureChat({ chat: toChat(options.chat, options.from) });
  const from = toUser(options.from);
  const content = messageContent({ state, options });
  let message: Message;
  if (options.edit === true) {
    const base: Message = { ...editTarget({ state, chat, options }) };
    delete base.text;
    delete base.entities;
    delete base.caption;
    delete base.caption_entities;
    message = { ...base, ...content, edit_date: state.unixNow() } as Message;
  } else {
    message = { message_id: state.nextMessageId({ chat }), from, chat: chat.chat, date: state.unixNow(), ...content } as Message;
    const reply = replyTarget({ state, chat, reply: options.reply_to_message });
    if (reply) message.reply_to_message = reply;
    if (options.message_thread_id !== undefined) {
      message.message_thread_id = options.message_thread_id;
      if (chat.chat.type === 'supergroup' && chat.chat.is_forum) message.is_topic_message = true;
    }
    if (options.media_group_id !== undefined) message.media_group_id = options.media_group_id;
  }
  state.store({ chat, message });
  const update = options.edit === true ? { edited_message: message } : { message };
  return state.updates.push({ update: update as Omit<Update, 'update_id'> });
}

function toChat(chat: PushChat, from: PushUser): Chat {
  if (chat.type === 'private') {
    const username = chat.username ?? from.username;
    return {
      id: chat.id, type: 'private', first_name: from.first_name,
      ...(from.last_name !== undefined ? { last_name: from.last_name } : {}),
      ...(username !== undefined ? { username } : {}),
    };
  }
  const title = chat.title ?? `Chat ${chat.id}`;
  if (chat.type === 'group') return { id: chat.id, type: 'group', title };
  return {
    id: chat.id, type: 'supergroup', title,
    ...(chat.username !== undefined ? { username: chat.username } : {}),
    ...(chat.is_forum === true ? { is_forum: true } : {}),
  };
}

function toUser(user: PushUser): User {
  const result: User = { id: user.id, is_bot: user.is_bot ?? false, first_name: user.first_name };
  if (user.last_name !== undefined) result.last_name = user.last_name;
  if (user.username !== undefined) result.username = user.username;
  if (user.language_code !== undefined) result.language_code = user.language_code;
  return result;
}

function messageContent(params: { state: TelegramState; options: PushMessageOptions }): Partial<Message> {
  const { state, options } = params;
  const kinds = MEDIA_KINDS.filter((kind) => options[kind] !== undefined);
  if (kinds.length > 1) throw new Error(`FakeTelegram.pushMessage: one message carries one file, got ${kinds.join(' and ')}`);
  const kind = kinds[0];
  if (kind === undefined) {
    if (options.text === undefined || options.text === '') throw new Error('FakeTelegram.pushMessage: give text or a file');
    if (options.caption !== undefined) throw new Error('FakeTelegram.pushMessage: a caption needs a photo, document, voice or audio');
    const entities = options.entities ?? detectEntities({ text: options.text });
    return { text: options.text, ...(entities.length > 0 ? { entities } : {}) };
  }
  if (options.text !== undefined) throw new Error('FakeTelegram.pushMessage: a media message has a caption, not text');
  const handle = options[kind];
  const file = handle ? state.files.get(handle.file_id) : undefined;
  if (!file) throw new Error(`FakeTelegram.pushMessage: ${kind} ${handle?.file_id ?? ''} was not registered with addFile`);
  const content: Partial<Message> = { ...mediaField({ kind, file }) };
  if (options.caption !== undefined && options.caption !== '') {
    content.caption = options.caption;
    const entities = options.entities ?? detectEntities({ text: options.caption });
    if (entities.length > 0) content.caption_entities = entities;
  }
  return content;
}

function editTarget(params: { state: TelegramState; chat: ChatRecord; options: PushMessageOptions }): Message {
  const { state, chat, options } = params;
  const id = options.message_id ?? [...chat.messages.values()]
    .filter((m) => !m.sent && !m.deleted && m.message.from?.id === options.from.id)
    .at(-1)?.message.message_id;
  const stored = id === undefined ? undefined : state.message({ chat, messageId: id });
  if (!stored || stored.sent) {
    throw new Error(`FakeTelegram.pushMessage: edit needs an earlier message of user ${options.from.id} in chat ${chat.chat.id}`);
  }
  return stored.message;
}

function replyTarget(params: {
  state: TelegramState;
  chat: ChatRecord;
  reply: number | Message | undefined;
}): (Message & { reply_to_message: undefined }) | undefined {
  const { reply } = params;
  if (reply === undefined) return undefined;
  const found = typeof reply === 'number' ? params.state.message({ chat: params.chat, messageId: reply })?.message : reply;
  if (!found) throw new Error(`FakeTelegram.pushMessage: no message ${String(reply)} in chat ${params.chat.chat.id} to reply to`);
  const copy = { ...found };
  delete copy.reply_to_message;
  return copy as Message & { reply_to_message: undefined };
}
