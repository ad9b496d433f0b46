import type { Message } from 'grammy/types';
import type { MethodContext, MethodHandler } from './context.js';
import { badRequest } from './errors.js';
import type { FileKind, StoredFile } from './files.js';
import { imageInfo } from './image.js';
import { read } from './params.js';
import { resolveReply, sendOutgoing, type MessageContent } from './outgoing.js';
import { formatText } from './text.js';

/** Telegram's upper bound on width + height of a photo. */
const MAX_PHOTO_DIMENSIONS = 10_000;

/** Finds the file a send refers to: an upload (attach://name or the field itself) or a known file_id. */
function resolveFile(ctx: MethodContext, kind: FileKind): StoredFile {
  const { state, params, uploads } = ctx;
  const value = read(params).string(kind);
  const uploadName = value === undefined ? kind : value.startsWith('attach://') ? value.slice('attach://'.length) : undefined;
  if (uploadName === undefined) {
    const known = value === undefined ? undefined : state.files.get(value);
    if (!known) throw badRequest('wrong file identifier/HTTP URL specified');
    return known;
  }
  const upload = uploads.get(uploadName);
  if (!upload) throw badRequest(`there is no ${kind} in the request`);
  if (upload.bytes.length === 0) throw badRequest('file must be non-empty');
  if (kind === 'photo') {
    const image = imageInfo({ bytes: upload.bytes });
    if (!image) throw badRequest('IMAGE_PROCESS_FAILED');
    if (image.width + image.height > MAX_PHOTO_DIMENSIONS) throw badRequest('PHOTO_INVALID_DIMENSIONS');
    return state.files.add({ kind, bytes: upload.bytes, fileName: upload.fileName, width: image.width, height: image.height });
  }
  return state.files.add({ kind, bytes: upload.bytes, fileName: upload.fileName, duration: read(params).int('duration') ?? 0 });
}

/** The Message field describing a file of the given kind. */
export function mediaField(params: { kind: FileKind; file: StoredFile }): MessageContent {
  const { kind, file } = params;
  const base = { file_id: file.file_id, file_unique_id: file.file_unique_id, file_size: file.bytes.length };
  const named = {
    ...(file.fileName !== undefined ? { file_name: file.fileName } : {}),
    ...(file.mimeType !== undefined ? { mime_type: file.mimeType } : {}),
  };
  switch (kind) {
    case 'photo':
      return { photo: [{ ...base, width: file.width ?? 0, height: file.height ?? 0 }] };
    case 'document':
      return { document: { ...base, ...named } };
    case 'voice':
      return { voice: { ...base, duration: file.duration ?? 0, ...(file.mimeType !== undefined ? { mime_type: file.mimeType } : {}) } };
    case 'audio':
      return { audio: { ...base, duration: file.duration ?? 0, ...named } };
  }
}

/** sendPhoto / sendDocument / sendVoice / sendAudio: multipart upload or file_id, optional caption. */
function sendMedia(kind: FileKind): MethodHandler {
  return (ctx: MethodContext): Message => {
    const { state, params } = ctx;
    const chat = state.chatFor({ chatId: params['chat_id'] });
    const replyTo = resolveReply({ state, chat, params });
    const caption = read(params).string('caption') ?? '';
    const formatted = formatText({
      text: caption,
      parseMode: read(params).string('parse_mode'),
      entities: read(params).array('caption_entities'),
      kind: 'caption',
    });
    const file = resolveFile(ctx, kind);
    const content: MessageContent = { ...mediaField({ kind, file }) };
    if (formatted.shown !== '') content.caption = formatted.shown;
    if (formatted.entities.length > 0) content.caption_entities = formatted.entities;
    const sentFile = { file_id: file.file_id, size: file.bytes.length, bytes: file.bytes,
      ...(file.fileName !== undefined ? { file_name: file.fileName } : {}),
      ...(file.mimeType !== undefined ? { mime_type: file.mimeType } : {}) };
    return sendOutgoing({ state, chat, params, replyTo, kind, rawText: caption, formatted, content, file: sentFile });
  };
}

/** sendPhoto (the upload must be a JPEG, PNG, GIF or WebP image). */
export const sendPhoto = sendMedia('photo');
/** sendDocument. */
export const sendDocument = sendMedia('document');
/** sendVoice. */
export const sendVoice = sendMedia('voice');
/** sendAudio. */
export const sendAudio = sendMedia('audio');
