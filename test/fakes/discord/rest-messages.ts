import type { MultipartPart } from '../telegram/multipart.js';
import { attachmentJson, messageJson } from './messages.js';
import { checkComponents } from './components.js';
import { DiscordApiError, type RestRequest, type Route } from './router.js';
import type { DiscordState } from './state.js';
import type { BotMessage, Json, SentAttachment } from './types.js';

/** Discord's cap on message content. */
const MAX_CONTENT = 2000;

/** Discord's cap on a nonce's length. */
const MAX_NONCE = 25;

/** How long Discord remembers a nonce for enforce_nonce ("a few minutes"). */
const NONCE_WINDOW_MS = 3 * 60_000;

/** The nonce of a create request (string or integer), or a 400 like Discord's when it is too long. */
function nonceOf(body: Json): string | undefined {
  const raw = body['nonce'];
  if (raw === undefined || raw === null) return undefined;
  const nonce = String(raw);
  if (nonce.length > MAX_NONCE) throw invalidForm({ field: 'nonce', code: 'BASE_TYPE_MAX_LENGTH', text: `Must be ${MAX_NONCE} or fewer in length.` });
  return nonce;
}

/** What message routes need besides the state. */
export interface MessageRouteDeps {
  /** Shared state. */
  state: DiscordState;
  /** http://127.0.0.1:PORT, for attachment URLs. */
  baseUrl: () => string;
  /** Sends a message event over the gateway. */
  emit: (params: { t: string; d: Json }) => void;
}

/** POST/PATCH/DELETE messages, reactions and typing. */
export function messageRoutes(deps: MessageRouteDeps): Route[] {
  const { state } = deps;
  return [
    { pattern: 'POST /channels/:channel/messages', handle: (request) => createMessage(deps, request) },
    { pattern: 'PATCH /channels/:channel/messages/:message', handle: (request) => editMessage(deps, request) },
    {
      pattern: 'DELETE /channels/:channel/messages/:message',
      handle: (request) => {
        const { channel, message } = request.params;
        const stored = findMessage({ state, channelId: channel ?? '', messageId: message ?? '' });
        state.messages.delete(stored['id'] as string);
        const record = state.botMessages.get(stored['id'] as string);
        if (record) record.deleted = true;
        deps.emit({ t: 'MESSAGE_DELETE', d: pick(stored, ['id', 'channel_id', 'guild_id']) });
        return { status: 204 };
      },
    },
    {
      pattern: 'PUT /channels/:channel/messages/:message/reactions/:emoji/@me',
      handle: (request) => {
        const stored = findMessage({ state, channelId: request.params['channel'] ?? '', messageId: request.params['message'] ?? '' });
        const emoji = decodeURIComponent(request.params['emoji'] ?? '');
        state.botMessages.get(stored['id'] as string)?.reactions.push(emoji);
        state.reactions.push({ messageId: stored['id'] as string, emoji });
        return { status: 204 };
      },
    },
    {
      pattern: 'POST /channels/:channel/typing',
      handle: (request) => {
        const channelId = requireChannel({ state, channelId: request.params['channel'] ?? '' });
        state.typing.set(channelId, (state.typing.get(channelId) ?? 0) + 1);
        return { status: 204 };
      },
    },
  ];
}

function createMessage(deps: MessageRouteDeps, request: RestRequest): { status: number; body: Json } {
  const { state } = deps;
  const channelId = requireChannel({ state, channelId: request.params['channel'] ?? '' });
  const body = asObject(request.body);
  const nonce = nonceOf(body);
  // With enforce_nonce, the same nonce within Discord's window gets the message already created, not a second one.
  const seen = nonce !== undefined && body['enforce_nonce'] === true ? state.nonces.get(`${channelId}:${nonce}`) : undefined;
  const earlier = seen !== undefined && state.clock.now() - seen.at < NONCE_WINDOW_MS ? state.messages.get(seen.messageId) : undefined;
  if (earlier) return { status: 200, body: earlier };
  const content = typeof body['content'] === 'string' ? body['content'] : '';
  checkContent({ content });
  const embeds = Array.isArray(body['embeds']) ? body['embeds'] : [];
  const components = body['components'] === undefined ? [] : checkComponents({ components: body['components'] });
  if (content === '' && embeds.length === 0 && request.files.length === 0) {
    throw new DiscordApiError({ status: 400, code: 50006, message: 'Cannot send an empty message' });
  }
  const reference = body['message_reference'] === undefined || body['message_reference'] === null ? undefined : asObject(body['message_reference']);
  const referencedId = reference ? String(reference['message_id']) : undefined;
  if (referencedId && !state.messages.has(referencedId) && reference?.['fail_if_not_exists'] !== false) {
    throw invalidForm({ field: 'message_reference', code: 'MESSAGE_REFERENCE_UNKNOWN_MESSAGE', text: 'Unknown message' });
  }
  const sent = uploads({ state, files: request.files, declared: body['attachments'] });
  const flags = typeof body['flags'] === 'number' ? body['flags'] : 0;
  if ((flags & VOICE_MESSAGE) !== 0) checkVoiceMessage({ content, embeds, sent });
  const id = state.nextId();
  const message = messageJson({
    state, id, channelId, author: { ...state.bot, bot: true }, content, embeds,
    attachments: sent.map((file) => attachmentJson({
      state, baseUrl: deps.baseUrl(), channelId,
      file: { id: file.id, name: file.name, bytes: file.bytes, contentType: file.contentType ?? 'application/octet-stream' },
    })),
    ...(referencedId && state.messages.has(referencedId) ? { referencedMessageId: referencedId } : {}),
  });
  if (nonce !== undefined) {
    message['nonce'] = body['nonce'];
    state.nonces.set(`${channelId}:${nonce}`, { messageId: id, at: state.clock.now() });
  }
  if (components.length > 0) message['components'] = components;
  if (flags !== 0) message['flags'] = flags;
  state.messages.set(id, message);
  const record: BotMessage = {
    id, channelId, content, edits: 0, history: [content], attachments: sent, flags, embeds, reactions: [], deleted: false,
  };
  if (body['allowed_mentions'] !== undefined) record.allowed_mentions = body['allowed_mentions'];
  if (reference) record.message_reference = reference;
  state.botMessages.set(id, record);
  deps.emit({ t: 'MESSAGE_CREATE', d: message });
  return { status: 200, body: message };
}

function editMessage(deps: MessageRouteDeps, request: RestRequest): { status: number; body: Json } {
  const { state } = deps;
  const stored = findMessage({ state, channelId: request.params['channel'] ?? '', messageId: request.params['message'] ?? '' });
  const record = state.botMessages.get(stored['id'] as string);
  if (!record) throw new DiscordApiError({ status: 403, code: 50005, message: 'Cannot edit a message authored by another user' });
  const body = asObject(request.body);
  if (typeof body['content'] === 'string') {
    checkContent({ content: body['content'] });
    stored['content'] = body['content'];
    record.content = body['content'];
    record.history.push(body['content']);
  }
  if (Array.isArray(body['embeds'])) {
    stored['embeds'] = body['embeds'];
    record.embeds = body['embeds'];
  }
  // Without `components` a message keeps its buttons; `components: []` removes them.
  if (body['components'] !== undefined) stored['components'] = checkComponents({ components: body['components'] });
  if (body['allowed_mentions'] !== undefined) record.allowed_mentions = body['allowed_mentions'];
  record.edits += 1;
  stored['edited_timestamp'] = state.isoNow();
  deps.emit({ t: 'MESSAGE_UPDATE', d: stored });
  return { status: 200, body: stored };
}

/** Pairs multipart `files[n]` parts with payload_json's `attachments[{ id: n, filename }]`. */
function uploads(params: { state: DiscordState; files: MultipartPart[]; declared: unknown }): SentAttachment[] {
  const declared = Array.isArray(params.declared) ? params.declared.map(asObject) : [];
  return params.files.map((part, index) => {
    const key = /^files\[(\d+)\]$/.exec(part.name)?.[1] ?? String(index);
    const meta = declared.find((entry) => String(entry['id']) === key);
    const name = typeof meta?.['filename'] === 'string' ? meta['filename'] : (part.fileName ?? `file${index}`);
    const file: SentAttachment = { id: params.state.nextId(), name, bytes: Buffer.from(part.data) };
    if (part.contentType) file.contentType = part.contentType;
    if (typeof meta?.['duration_secs'] === 'number') file.durationSecs = meta['duration_secs'];
    if (typeof meta?.['waveform'] === 'string') file.waveform = meta['waveform'];
    return file;
  });
}

/** Discord's IS_VOICE_MESSAGE message flag. */
const VOICE_MESSAGE = 1 << 13;

/** Discord's rules for a voice message: no text or embeds, one audio file, its duration and waveform declared. */
function checkVoiceMessage(params: { content: string; embeds: unknown[]; sent: SentAttachment[] }): void {
  if (params.content !== '' || params.embeds.length > 0) throw new DiscordApiError({ status: 400, code: 50159, message: 'Voice messages do not support additional content.' });
  const only = params.sent.length === 1 ? params.sent[0] : undefined;
  if (only === undefined || !(only.contentType ?? '').startsWith('audio/')) throw new DiscordApiError({ status: 400, code: 50160, message: 'Voice messages must have a single audio attachment.' });
  if (only.durationSecs === undefined || only.waveform === undefined) throw new DiscordApiError({ status: 400, code: 50161, message: 'Voice messages must have supporting metadata.' });
}

function checkContent(params: { content: string }): void {
  if ([...params.content].length > MAX_CONTENT) {
    throw invalidForm({ field: 'content', code: 'BASE_TYPE_MAX_LENGTH', text: `Must be ${MAX_CONTENT} or fewer in length.` });
  }
}

function invalidForm(params: { field: string; code: string; text: string }): DiscordApiError {
  return new DiscordApiError({
    status: 400, code: 50035, message: 'Invalid Form Body',
    errors: { [params.field]: { _errors: [{ code: params.code, message: params.text }] } },
  });
}

function requireChannel(params: { state: DiscordState; channelId: string }): string {
  if (!params.state.channels.has(params.channelId)) throw new DiscordApiError({ status: 404, code: 10003, message: 'Unknown Channel' });
  return params.channelId;
}

function findMessage(params: { state: DiscordState; channelId: string; messageId: string }): Json {
  requireChannel(params);
  const stored = params.state.messages.get(params.messageId);
  if (!stored || stored['channel_id'] !== params.channelId) throw new DiscordApiError({ status: 404, code: 10008, message: 'Unknown Message' });
  return stored;
}

/** Narrows a JSON body to an object (empty when absent). */
export function asObject(value: unknown): Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function pick(source: Json, keys: string[]): Json {
  return Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));
}
