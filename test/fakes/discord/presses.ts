import { randomBytes } from 'node:crypto';
import { shownButtons } from './components.js';
import { memberJson, userJson } from './payloads.js';
import type { DiscordState } from './state.js';
import type { Json, UserSpec } from './types.js';

/** A user's press of a button under a bot message. */
export interface ButtonPressOptions {
  /** The bot message carrying the button. */
  messageId: string;
  /** Who presses. */
  user: UserSpec;
  /** The button's label (default: the first button), */
  label?: string;
  /** or its custom_id. */
  customId?: string;
  /** Role ids of the member (guild channels only). */
  roles?: string[];
}

/**
 * Builds, stores and returns the MESSAGE_COMPONENT interaction (type 3) Discord dispatches when a user presses a
 * button: the message as it is now, the button's custom_id, the presser as member (guild) or user (DM). Throws
 * when the message or button does not exist (a user cannot press what is not shown).
 */
export function buttonInteraction(params: { state: DiscordState; options: ButtonPressOptions }): Json {
  const { state, options } = params;
  const message = state.messages.get(options.messageId);
  if (!message) throw new Error(`FakeDiscord.press: no message ${options.messageId}`);
  const buttons = shownButtons({ components: message['components'] }).flat();
  const button = options.customId !== undefined
    ? buttons.find((b) => b.customId === options.customId)
    : options.label !== undefined ? buttons.find((b) => b.label === options.label) : buttons[0];
  if (!button) throw new Error(`FakeDiscord.press: message ${options.messageId} shows no such button (it has ${buttons.map((b) => b.label).join(', ') || 'none'})`);
  const channelId = String(message['channel_id']);
  const channel = state.channels.get(channelId);
  state.rememberUser({ user: options.user });
  const id = state.nextId();
  const token = `aW50ZXJhY3Rpb24.${randomBytes(24).toString('base64url')}`;
  const guildId = state.guildOf({ channelId });
  const payload: Json = {
    id, application_id: state.applicationId, type: 3, token, version: 1,
    data: { custom_id: button.customId, component_type: 2 },
    message: { ...message },
    channel: { ...channel }, channel_id: channelId,
    app_permissions: '2248473465835073', locale: 'en-US', entitlements: [],
    authorizing_integration_owners: { '0': guildId ?? options.user.id }, context: guildId ? 0 : 1,
    attachment_size_limit: 10 * 1024 * 1024,
  };
  if (guildId) {
    payload['guild_id'] = guildId;
    payload['guild_locale'] = 'en-US';
    payload['member'] = { ...memberJson({ user: options.user, joinedAt: state.isoNow() }), roles: options.roles ?? [], permissions: '2248473465835073' };
  } else {
    payload['user'] = userJson({ user: options.user });
  }
  state.interactions.set(id, {
    id, token, name: `button:${button.customId}`, channelId, createdAt: state.clock.now(), followups: [],
    component: { customId: button.customId, messageId: options.messageId },
  });
  return payload;
}
