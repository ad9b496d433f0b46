import { jsonParam, optionalString, requireChannel, requireString, SlackApiError, type MethodHandler } from './method-kit.js';
import type { SlackState } from './state.js';
import type { BotMessage, SlackFileObject, StoredFile } from './types.js';

/** Slack's cap on one file (1 GB). */
const MAX_FILE_BYTES = 1024 * 1024 * 1024;

/** files.getUploadURLExternal: filename, length → upload_url on the fake and file_id. */
export const getUploadUrl: MethodHandler = ({ state, params }) => {
  const name = requireString({ from: params, key: 'filename' });
  const length = Number(requireString({ from: params, key: 'length' }));
  if (!Number.isInteger(length) || length <= 0 || length > MAX_FILE_BYTES) throw new SlackApiError({ code: 'invalid_arguments' });
  const id = state.nextId({ prefix: 'F' });
  const file: StoredFile = { id, name, title: name, mimetype: mimeFor(name), declaredLength: length, user: state.identity.botUserId };
  state.files.set(id, file);
  return { upload_url: `${state.baseUrl}/upload/v1/${id}`, file_id: id };
};

/** Stores the bytes POSTed to an upload URL; false when the file id is unknown. */
export function receiveUpload(params: { state: SlackState; fileId: string; bytes: Buffer }): boolean {
  const file = params.state.files.get(params.fileId);
  if (!file || file.user !== params.state.identity.botUserId) return false;
  file.bytes = params.bytes;
  params.state.changed();
  return true;
}

/** files.completeUploadExternal: files [{id,title}], channel_id?, thread_ts?, initial_comment? → shares into the channel. */
export const completeUpload: MethodHandler = ({ state, params }) => {
  const entries = jsonParam({ from: params, key: 'files' });
  if (!Array.isArray(entries) || entries.length === 0) throw new SlackApiError({ code: 'invalid_arguments' });
  const files: StoredFile[] = entries.map((entry: unknown) => {
    const record = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : {};
    const file = typeof record['id'] === 'string' ? state.files.get(record['id']) : undefined;
    if (!file) throw new SlackApiError({ code: 'file_not_found' });
    if (!file.bytes) throw new SlackApiError({ code: 'file_upload_incomplete' });
    if (typeof record['title'] === 'string' && record['title'] !== '') file.title = record['title'];
    return file;
  });
  const objects: SlackFileObject[] = files.map((file) => state.fileObject({ file }));
  const channelParam = optionalString({ from: params, key: 'channel_id' });
  if (channelParam !== undefined && channelParam !== '') {
    const channel = requireChannel({ state, from: params, key: 'channel_id' });
    const threadTs = optionalString({ from: params, key: 'thread_ts' });
    const text = optionalString({ from: params, key: 'initial_comment' }) ?? '';
    const message: BotMessage = {
      ts: state.nextTs({ channel }), channel, text, edits: 0, history: [text], deleted: false, files: objects,
      ...(threadTs !== undefined && threadTs !== '' ? { thread_ts: threadTs } : {}),
    };
    state.addMessage({ message });
  }
  return { files: objects.map((o) => ({ id: o.id, title: o.title })) };
};

/** A MIME type from a file name's extension. */
export function mimeFor(name: string): string {
  const ext = (name.split('.').pop() ?? '').toLowerCase();
  const known: Record<string, string> = {
    txt: 'text/plain', md: 'text/markdown', json: 'application/json', pdf: 'application/pdf', png: 'image/png',
    jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', csv: 'text/csv', mp3: 'audio/mpeg',
    ogg: 'audio/ogg', m4a: 'audio/mp4', wav: 'audio/wav', mp4: 'video/mp4', zip: 'application/zip',
  };
  return known[ext] ?? 'application/octet-stream';
}
