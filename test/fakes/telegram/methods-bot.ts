import type { BotCommand, File, Update, User, WebhookInfo } from 'grammy/types';
import type { MethodContext, MethodHandler } from './context.js';
import { badRequest, conflict, CONFLICT_OTHER_POLLER, CONFLICT_WEBHOOK_ACTIVE } from './errors.js';
import { read } from './params.js';

const CHAT_ACTIONS = new Set([
  'typing', 'upload_photo', 'record_video', 'upload_video', 'record_voice', 'upload_voice',
  'upload_document', 'choose_sticker', 'find_location', 'record_video_note', 'upload_video_note',
]);
/** getFile refuses files above 20 MB. */
const MAX_DOWNLOAD_BYTES = 20 * 1024 * 1024;
const WEBHOOK_PORTS = new Set(['', '80', '88', '443', '8443']);

/** getMe. */
export const getMe: MethodHandler = ({ state }: MethodContext): User => ({
  ...state.bot,
  can_join_groups: true,
  can_read_all_group_messages: false,
  supports_inline_queries: false,
  can_connect_to_business: false,
  has_main_web_app: false,
} as User);

/** getUpdates: long poll with offset, limit, timeout and allowed_updates; 409 while a webhook is set. */
export const getUpdates: MethodHandler = async ({ state, params, signal }: MethodContext): Promise<Update[]> => {
  if (state.webhook) throw conflict(CONFLICT_WEBHOOK_ACTIVE);
  const limit = Math.min(100, Math.max(1, read(params).int('limit') ?? 100));
  const allowed = read(params).array('allowed_updates');
  const result = await state.updates.poll({
    offset: read(params).int('offset'),
    limit,
    timeoutSeconds: Math.max(0, read(params).int('timeout') ?? 0),
    ...(allowed !== undefined ? { allowedUpdates: allowed.map(String) } : {}),
    signal,
  });
  if (result.kind === 'conflict') throw conflict(CONFLICT_OTHER_POLLER);
  return result.kind === 'updates' ? result.updates : [];
};

/** setWebhook: records url, secret_token and max_connections; an empty url removes the webhook. */
export const setWebhook: MethodHandler = ({ state, params }: MethodContext): true => {
  const url = read(params).string('url') ?? '';
  if (read(params).flag('drop_pending_updates')) state.updates.clear();
  const allowed = read(params).array('allowed_updates');
  if (allowed !== undefined) state.updates.setAllowed({ allowedUpdates: allowed.map(String) });
  if (url === '') {
    state.webhook = undefined;
    return true;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest('bad webhook: Failed to resolve host: Name or service not known');
  }
  if (parsed.protocol !== 'https:') throw badRequest('bad webhook: An HTTPS URL must be provided for webhook');
  if (!WEBHOOK_PORTS.has(parsed.port)) {
    throw badRequest('bad webhook: Webhook can be set up only on ports 80, 88, 443 or 8443');
  }
  const secretToken = read(params).string('secret_token');
  const maxConnections = read(params).int('max_connections');
  state.webhook = {
    url,
    ...(secretToken !== undefined ? { secretToken } : {}),
    ...(maxConnections !== undefined ? { maxConnections } : {}),
  };
  state.changed();
  return true;
};

/** deleteWebhook (optionally dropping pending updates). */
export const deleteWebhook: MethodHandler = ({ state, params }: MethodContext): true => {
  state.webhook = undefined;
  if (read(params).flag('drop_pending_updates')) state.updates.clear();
  state.changed();
  return true;
};

/** getWebhookInfo. */
export const getWebhookInfo: MethodHandler = ({ state }: MethodContext): WebhookInfo => {
  const info: WebhookInfo = {
    url: state.webhook?.url ?? '',
    has_custom_certificate: false,
    pending_update_count: state.updates.pending,
  };
  if (state.webhook?.maxConnections !== undefined) info.max_connections = state.webhook.maxConnections;
  const allowed = state.updates.allowedUpdates;
  if (state.webhook && allowed.length > 0) info.allowed_updates = allowed as WebhookInfo['allowed_updates'];
  return info;
};

/** sendChatAction: the chat must exist and the action must be one Telegram knows. */
export const sendChatAction: MethodHandler = ({ state, params }: MethodContext): true => {
  state.chatFor({ chatId: params['chat_id'] });
  const action = read(params).string('action') ?? '';
  if (!CHAT_ACTIONS.has(action)) throw badRequest('wrong parameter action in request');
  return true;
};

/** getFile: file_path for a known file_id. */
export const getFile: MethodHandler = ({ state, params }: MethodContext): File => {
  const file = state.files.get(read(params).string('file_id') ?? '');
  if (!file) throw badRequest('invalid file_id');
  if (file.bytes.length > MAX_DOWNLOAD_BYTES) throw badRequest('file is too big');
  return { file_id: file.file_id, file_unique_id: file.file_unique_id, file_size: file.bytes.length, file_path: file.file_path };
};

/** setMyCommands: validates names and descriptions like Telegram and stores them per scope and language. */
export const setMyCommands: MethodHandler = ({ state, params }: MethodContext): true => {
  const commands = read(params).array('commands');
  if (commands === undefined) throw badRequest('parameter "commands" is required');
  if (commands.length > 100) throw badRequest('BOT_COMMANDS_TOO_MUCH');
  const valid: BotCommand[] = commands.map((entry) => {
    const item = typeof entry === 'object' && entry !== null ? (entry as Record<string, unknown>) : {};
    const command = typeof item['command'] === 'string' ? item['command'] : '';
    const description = typeof item['description'] === 'string' ? item['description'] : '';
    if (!/^[a-z0-9_]{1,32}$/.test(command)) throw badRequest('BOT_COMMAND_INVALID');
    if (description.trim().length === 0 || description.length > 256) throw badRequest('BOT_COMMAND_DESCRIPTION_INVALID');
    return { command, description };
  });
  const key = commandsKey(params);
  if (valid.length === 0) state.commands.delete(key);
  else state.commands.set(key, valid);
  state.changed();
  return true;
};

/** getMyCommands for a scope and language. */
export const getMyCommands: MethodHandler = ({ state, params }: MethodContext): BotCommand[] =>
  state.commands.get(commandsKey(params)) ?? [];

/** deleteMyCommands for a scope and language. */
export const deleteMyCommands: MethodHandler = ({ state, params }: MethodContext): true => {
  state.commands.delete(commandsKey(params));
  state.changed();
  return true;
};

function commandsKey(params: Record<string, unknown>): string {
  const scope = read(params).object('scope') ?? { type: 'default' };
  const ordered = Object.fromEntries(Object.entries(scope).sort(([a], [b]) => a.localeCompare(b)));
  return `${JSON.stringify(ordered)}|${read(params).string('language_code') ?? ''}`;
}
