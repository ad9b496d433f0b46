import { shownButtons } from './components.js';
import { interactionPayload } from './interactions.js';
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
  const { id, token, payload } = interactionPayload({
    state,
    channelId,
    user: options.user,
    ...(options.roles ? { roles: options.roles } : {}),
    type: 3,
    data: () => ({ custom_id: button.customId, component_type: 2 }),
    message: { ...message },
  });
  state.interactions.set(id, {
    id, token, name: `button:${button.customId}`, channelId, createdAt: state.clock.now(), followups: [],
    component: { customId: button.customId, messageId: options.messageId },
  });
  return payload;
}
