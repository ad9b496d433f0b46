import { randomUUID } from 'node:crypto';
import { shownButtons } from './blocks.js';
import { messageObject } from './methods-chat.js';
import type { SlackState } from './state.js';

/** A user's press of a button under a bot message. */
export interface PressOptions {
  /** The channel the message is in. */
  channel: string;
  /** The bot message's ts. */
  ts: string;
  /** Who presses (a user id, e.g. U0OWNER). */
  user: string;
  /** The button's label (default: the first button). */
  label?: string;
  /** Or its action_id. */
  actionId?: string;
}

/**
 * The `block_actions` payload Slack sends when a user presses a button: the user, the container and channel, the
 * message as it is now (with its blocks), a response_url and the pressed action. Throws when the message or the
 * button does not exist (a user cannot press what is not shown).
 */
export function blockActionsPayload(params: { state: SlackState; options: PressOptions }): Record<string, unknown> {
  const { state, options } = params;
  const message = state.messages.get(`${options.channel}:${options.ts}`);
  if (!message || message.deleted) throw new Error(`FakeSlack.press: no bot message ${options.ts} in ${options.channel}`);
  const buttons = shownButtons({ blocks: message.blocks }).flat();
  const button = options.actionId !== undefined
    ? buttons.find((b) => b.actionId === options.actionId)
    : options.label !== undefined ? buttons.find((b) => b.text === options.label) : buttons[0];
  if (!button) throw new Error(`FakeSlack.press: message ${options.ts} shows no such button (it has ${buttons.map((b) => b.text).join(', ') || 'none'})`);
  state.users.add(options.user);
  const { teamId, appId } = state.identity;
  const now = state.clock.now() / 1000;
  return {
    type: 'block_actions',
    user: { id: options.user, username: options.user.toLowerCase(), name: options.user.toLowerCase(), team_id: teamId },
    api_app_id: appId,
    token: 'fake-verification-token',
    container: {
      type: 'message', message_ts: message.ts, channel_id: message.channel, is_ephemeral: false,
      ...(message.thread_ts !== undefined ? { thread_ts: message.thread_ts } : {}),
    },
    trigger_id: `${Math.floor(now)}.${randomUUID().slice(0, 8)}`,
    team: { id: teamId, domain: 'fake' },
    enterprise: null,
    is_enterprise_install: false,
    channel: { id: message.channel, name: message.channel.startsWith('D') ? 'directmessage' : 'general' },
    message: messageObject({ state, message }),
    state: { values: {} },
    response_url: `${state.baseUrl}/actions/${randomUUID()}`,
    actions: [{
      action_id: button.actionId,
      block_id: button.blockId,
      text: { type: 'plain_text', text: button.text, emoji: true },
      ...(button.value !== undefined ? { value: button.value } : {}),
      type: 'button',
      action_ts: now.toFixed(6),
    }],
  };
}
