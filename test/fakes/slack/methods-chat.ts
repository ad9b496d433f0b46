import { jsonParam, optionalString, requireChannel, requireString, SlackApiError, type MethodHandler } from './method-kit.js';
import type { SlackState } from './state.js';
import type { BotMessage } from './types.js';

/** The `message` object Slack returns for a bot message. */
export function messageObject(params: { state: SlackState; message: BotMessage }): Record<string, unknown> {
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
  };
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
  const ts = state.nextTs({ channel });
  const message: BotMessage = {
    ts, channel, text: text ?? '', edits: 0, history: [text ?? ''], deleted: false,
    ...(threadTs !== undefined && threadTs !== '' ? { thread_ts: threadTs } : {}),
  };
  state.addMessage({ message });
  return { channel, ts, message: messageObject({ state, message }) };
};

/** chat.update: channel, ts, text; unknown ts → message_not_found, a user's message → cant_update_message. */
export const update: MethodHandler = ({ state, params }) => {
  const channel = requireChannel({ state, from: params });
  const ts = requireString({ from: params, key: 'ts', error: 'message_not_found' });
  const message = liveMessage(state, channel, ts);
  const text = optionalString({ from: params, key: 'text' });
  if (!hasContent(params, text)) throw new SlackApiError({ code: 'no_text' });
  if (text !== undefined && text.length > 40_000) throw new SlackApiError({ code: 'msg_too_long' });
  message.text = text ?? '';
  message.edits += 1;
  message.history.push(message.text);
  state.changed();
  return { channel, ts, text: message.text, message: messageObject({ state, message }) };
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
