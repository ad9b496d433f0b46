import { jsonParam, optionalString, requireChannel, requireString, SlackApiError, type MethodHandler } from './method-kit.js';
import { checkBlocks } from './blocks.js';
import type { SlackState } from './state.js';
import type { BotMessage } from './types.js';

/** The `message` object Slack returns for a bot message. */
export function messageObject(params: { state: SlackState; message: BotMessage; withMetadata?: boolean }): Record<string, unknown> {
  const { identity } = params.state;
  const { message } = params;
  return {
    type: 'message',
    subtype: message.files ? 'file_share' : undefined,
    text: message.text,
    user: identity.botUserId,
    bot_id: identity.botId,
    team: identity.teamId,
    ts: message.ts,
    ...(message.thread_ts !== undefined ? { thread_ts: message.thread_ts } : {}),
    ...(message.edits > 0 ? { edited: { user: identity.botUserId, ts: message.ts } } : {}),
    ...(message.files ? { files: message.files } : {}),
    ...(params.withMetadata === true && message.metadata ? { metadata: message.metadata } : {}),
    ...(message.blocks !== undefined && message.blocks.length > 0 ? { blocks: message.blocks } : {}),
  };
}

/** The `blocks` parameter, checked; undefined when absent. */
function blocksParam(params: Record<string, unknown>): unknown[] | undefined {
  const raw = jsonParam({ from: params, key: 'blocks' });
  return raw === undefined ? undefined : checkBlocks({ blocks: raw });
}

/** The `metadata` parameter of chat.postMessage: {event_type, event_payload}, or Slack's invalid_metadata_format. */
function metadataParam(params: Record<string, unknown>): BotMessage['metadata'] {
  const raw = jsonParam({ from: params, key: 'metadata' });
  if (raw === undefined) return undefined;
  const value = typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Record<string, unknown>) : undefined;
  const eventType = value?.['event_type'];
  const payload = value?.['event_payload'];
  if (typeof eventType !== 'string' || eventType === '' || typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new SlackApiError({ code: 'invalid_metadata_format' });
  }
  return { event_type: eventType, event_payload: payload as Record<string, unknown> };
}

/** Whether a request carries any content: text, blocks or attachments. */
function hasContent(params: Record<string, unknown>, text: string | undefined): boolean {
  if (text !== undefined && text !== '') return true;
  const blocks = jsonParam({ from: params, key: 'blocks' });
  const attachments = jsonParam({ from: params, key: 'attachments' });
  return (Array.isArray(blocks) && blocks.length > 0) || (Array.isArray(attachments) && attachments.length > 0);
}

/** A bot message that exists and was not deleted, or message_not_found. */
function liveMessage(state: SlackState, channel: string, ts: string): BotMessage {
  const message = state.messages.get(`${channel}:${ts}`);
  if (!message || message.deleted) {
    if (!message && state.knownTs.has(`${channel}:${ts}`)) throw new SlackApiError({ code: 'cant_update_message' });
    throw new SlackApiError({ code: 'message_not_found' });
  }
  return message;
}

/** chat.postMessage: channel, text (or blocks/attachments), thread_ts; ts unique per channel. */
export const postMessage: MethodHandler = ({ state, params }) => {
  const channel = requireChannel({ state, from: params });
  const text = optionalString({ from: params, key: 'text' });
  if (!hasContent(params, text)) throw new SlackApiError({ code: 'no_text' });
  if (text !== undefined && text.length > 40_000) throw new SlackApiError({ code: 'msg_too_long' });
  const threadTs = optionalString({ from: params, key: 'thread_ts' });
  const metadata = metadataParam(params);
  const blocks = blocksParam(params);
  const ts = state.nextTs({ channel });
  const message: BotMessage = {
    ts, channel, text: text ?? '', edits: 0, history: [text ?? ''], deleted: false,
    ...(blocks !== undefined && blocks.length > 0 ? { blocks } : {}),
    ...(threadTs !== undefined && threadTs !== '' ? { thread_ts: threadTs } : {}),
    ...(metadata ? { metadata } : {}),
  };
  state.addMessage({ message });
  return { channel, ts, message: messageObject({ state, message }) };
};

/** Whether a ts lies inside conversations.history/replies' oldest/latest bounds (both exclusive, as Slack's default). */
function inRange(params: Record<string, unknown>, ts: string): boolean {
  const oldest = optionalString({ from: params, key: 'oldest' });
  const latest = optionalString({ from: params, key: 'latest' });
  return (oldest === undefined || Number(ts) > Number(oldest)) && (latest === undefined || Number(ts) < Number(latest));
}

/** The `limit` of a history read (Slack's default 100, at most 999). */
function limitParam(params: Record<string, unknown>): number {
  const raw = Number(optionalString({ from: params, key: 'limit' }) ?? 100);
  return Number.isInteger(raw) && raw > 0 ? Math.min(raw, 999) : 100;
}

/** Whether include_all_metadata was asked for (form "true"/"1" or JSON true). */
function wantsMetadata(params: Record<string, unknown>): boolean {
  const value = params['include_all_metadata'];
  return value === true || value === 'true' || value === '1';
}

/**
 * conversations.history: the channel's top-level messages, newest first; metadata only with include_all_metadata.
 * The fake keeps only the bot's messages, so only those are listed.
 */
export const history: MethodHandler = ({ state, params }) => {
  const channel = requireChannel({ state, from: params });
  const all = state.channelMessages({ channel }).filter((m) => !m.deleted && (m.thread_ts === undefined || m.thread_ts === m.ts) && inRange(params, m.ts));
  const limit = limitParam(params);
  const messages = all.reverse().slice(0, limit).map((message) => messageObject({ state, message, withMetadata: wantsMetadata(params) }));
  return { messages, has_more: all.length > limit, pin_count: 0 };
};

/** conversations.replies: a thread's messages (the bot's), oldest first; an unknown ts is thread_not_found. */
export const replies: MethodHandler = ({ state, params }) => {
  const channel = requireChannel({ state, from: params });
  const ts = requireString({ from: params, key: 'ts', error: 'thread_not_found' });
  if (!state.knownTs.has(`${channel}:${ts}`)) throw new SlackApiError({ code: 'thread_not_found' });
  const all = state.channelMessages({ channel }).filter((m) => !m.deleted && (m.ts === ts || m.thread_ts === ts) && inRange(params, m.ts));
  const limit = limitParam(params);
  const messages = all.slice(0, limit).map((message) => messageObject({ state, message, withMetadata: wantsMetadata(params) }));
  return { messages, has_more: all.length > limit };
};

/** chat.update: channel, ts, text; unknown ts → message_not_found, a user's message → cant_update_message. */
export const update: MethodHandler = ({ state, params }) => {
  const channel = requireChannel({ state, from: params });
  const ts = requireString({ from: params, key: 'ts', error: 'message_not_found' });
  const message = liveMessage(state, channel, ts);
  const text = optionalString({ from: params, key: 'text' });
  if (!hasContent(params, text)) throw new SlackApiError({ code: 'no_text' });
  if (text !== undefined && text.length > 40_000) throw new SlackApiError({ code: 'msg_too_long' });
  // Without `blocks` a message keeps the blocks it has; an empty array removes them.
  const blocks = blocksParam(params);
  if (blocks !== undefined && blocks.length > 0) message.blocks = blocks;
  else if (blocks !== undefined) delete message.blocks;
  message.text = text ?? '';
  message.edits += 1;
  message.history.push(message.text);
  state.changed();
  return { channel, ts, text: message.text, message: messageObject({ state, message }) };
};

/** chat.postEphemeral: channel, user, text (or blocks), thread_ts; shown to that user only, never stored as a message. */
export const postEphemeral: MethodHandler = ({ state, params }) => {
  const channel = requireChannel({ state, from: params });
  const user = requireString({ from: params, key: 'user', error: 'user_not_in_channel' });
  if (!state.users.has(user)) throw new SlackApiError({ code: 'user_not_in_channel' });
  const text = optionalString({ from: params, key: 'text' });
  if (!hasContent(params, text)) throw new SlackApiError({ code: 'no_text' });
  const threadTs = optionalString({ from: params, key: 'thread_ts' });
  state.ephemerals.push({ channel, user, text: text ?? '', at: state.clock.now(), ...(threadTs !== undefined ? { thread_ts: threadTs } : {}) });
  state.changed();
  return { message_ts: `${Math.floor(state.clock.now() / 1000)}.${String(state.ephemerals.length).padStart(6, '0')}` };
};

/** chat.delete: channel, ts. */
export const remove: MethodHandler = ({ state, params }) => {
  const channel = requireChannel({ state, from: params });
  const ts = requireString({ from: params, key: 'ts', error: 'message_not_found' });
  const message = liveMessage(state, channel, ts);
  message.deleted = true;
  state.changed();
  return { channel, ts };
};

/** reactions.add / reactions.remove: channel, timestamp, name. */
export function reaction(params: { add: boolean }): MethodHandler {
  return ({ state, params: p }) => {
    const channel = requireChannel({ state, from: p });
    const ts = requireString({ from: p, key: 'timestamp', error: 'no_item_specified' });
    const name = requireString({ from: p, key: 'name', error: 'invalid_name' }).replace(/^:|:$/g, '');
    const key = `${channel}:${ts}`;
    if (!state.knownTs.has(key) || state.messages.get(key)?.deleted === true) throw new SlackApiError({ code: 'message_not_found' });
    const names = state.reactions.get(key) ?? new Set<string>();
    if (params.add && names.has(name)) throw new SlackApiError({ code: 'already_reacted' });
    if (!params.add && !names.has(name)) throw new SlackApiError({ code: 'no_reaction' });
    if (params.add) names.add(name);
    else names.delete(name);
    state.reactions.set(key, names);
    state.changed();
    return {};
  };
}
