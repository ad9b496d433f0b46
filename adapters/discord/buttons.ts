import { ButtonStyle, ComponentType, MessageFlags, type APIActionRowComponent, type APIButtonComponent, type ButtonInteraction } from 'discord.js';
import type { Logger } from 'pino';
import type { AdapterStartParams, ChatRef, ChoiceAnswer, OutboundChoice, Sender } from '../../src/core/adapter.js';
import { choiceRows } from '../kit/choice-rows.js';
import { memberRoles } from './inbound.js';

/** Discord's limit on a button's label. */
const labelLimit = 80;

/** A message's buttons as Discord components: one action row per row of buttons, custom_id = the choice id. */
export function choiceComponents(params: { choices: readonly OutboundChoice[] }): APIActionRowComponent<APIButtonComponent>[] {
  return choiceRows(params).map((row) => ({
    type: ComponentType.ActionRow,
    components: row.map((choice): APIButtonComponent => ({
      type: ComponentType.Button,
      style: ButtonStyle.Secondary,
      label: choice.label.slice(0, labelLimit),
      custom_id: choice.id,
    })),
  }));
}

/**
 * Handles one button press: answered at once with DEFERRED_UPDATE_MESSAGE (Discord's 3-second limit is always met,
 * and the message stays as it is), then handed to `choose` whoever pressed (the gateway decides who may). The
 * answer's notice goes to the presser alone (an ephemeral follow-up); a retired question's message loses its
 * buttons. Never a turn; failures are logged, not thrown.
 */
export async function handleButtonPress(params: {
  interaction: ButtonInteraction;
  choose: AdapterStartParams['choose'];
  removeButtons: (params: { chat: ChatRef; messageId: string }) => Promise<void>;
  logger: Logger;
}): Promise<void> {
  const { interaction, logger } = params;
  try {
    await interaction.deferUpdate();
  } catch (error) {
    logger.warn({ err: error, interactionId: interaction.id }, 'could not acknowledge a Discord button press in time');
    return;
  }
  const dm = !interaction.inGuild();
  const chat: ChatRef = { id: interaction.channelId, kind: dm ? 'dm' : 'channel' };
  const user = interaction.user;
  const sender: Sender = {
    id: user.id, name: user.globalName ?? user.username, username: user.username, isBot: user.bot,
    ...(interaction.member ? { roles: memberRoles({ member: interaction.member }) } : {}),
  };
  let answer: ChoiceAnswer;
  try {
    answer = await params.choose({ platform: 'discord', chat, sender, messageId: interaction.message.id, choiceId: interaction.customId });
  } catch (error) {
    logger.warn({ err: error, interactionId: interaction.id }, 'a Discord button press could not be handled');
    return;
  }
  if (answer.notice !== undefined) {
    await interaction
      .followUp({ content: answer.notice, flags: MessageFlags.Ephemeral, allowedMentions: { parse: [] } })
      .catch((error: unknown) => logger.warn({ err: error, interactionId: interaction.id }, 'could not show a Discord button press its notice'));
  }
  if (answer.retire === true) {
    await params
      .removeButtons({ chat, messageId: interaction.message.id })
      .catch((error: unknown) => logger.warn({ err: error, messageId: interaction.message.id }, 'could not remove the buttons of an answered Discord question'));
  }
}
