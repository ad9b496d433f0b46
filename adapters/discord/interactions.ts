import { ChannelType, MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import type { ChatRef, MessageEvent, Sender } from '../../src/core/adapter.js';
import { channelSkipReason, memberRoles, type DiscordInboundPolicy } from './inbound.js';
import { slashCommands } from './slash-commands.js';

/** What one slash command means to the gateway. */
export type DiscordCommandRead =
  | { readonly kind: 'skip'; readonly reason: string }
  | { readonly kind: 'command'; readonly event: MessageEvent };

/** Turns a slash command into the gateway message `/<name> [its option's text]` (messageId = interaction id), or says why it is skipped. */
export function readCommand(params: { interaction: ChatInputCommandInteraction; policy: DiscordInboundPolicy; now: number }): DiscordCommandRead {
  const { interaction, policy } = params;
  const known = slashCommands.find((command) => command.name === interaction.commandName);
  if (known === undefined) return { kind: 'skip', reason: `unknown command /${interaction.commandName}` };
  const argName = known.options?.[0]?.name;
  const arg = argName === undefined ? null : interaction.options.getString(argName);
  const channelId = interaction.channelId;
  const channel = interaction.channel;
  const dm = !interaction.inGuild() || channel?.type === ChannelType.DM;
  const ruleChannel = channel?.isThread() ? (channel.parentId ?? channelId) : channelId;
  const closed = channelSkipReason({ dm, channelId, ruleChannel, policy });
  if (closed !== undefined) return { kind: 'skip', reason: closed };
  const user = interaction.user;
  const sender: Sender = {
    id: user.id, name: user.globalName ?? user.username, username: user.username, isBot: user.bot,
    ...(interaction.member ? { roles: memberRoles({ member: interaction.member }) } : {}),
  };
  const chat: ChatRef = { id: channelId, kind: dm ? 'dm' : 'channel' };
  return {
    kind: 'command',
    event: {
      platform: 'discord', messageId: interaction.id, chat, sender, text: arg ? `/${interaction.commandName} ${arg}` : `/${interaction.commandName}`,
      media: [], mentioned: true, receivedAt: params.now,
    },
  };
}

/**
 * Journals the command through `emit`, then answers the interaction (ephemeral, well within Discord's 3 s) so the
 * user sees it was taken; the gateway's control lane posts the real answer in the channel.
 */
export async function takeCommand(params: {
  interaction: ChatInputCommandInteraction;
  event: MessageEvent;
  mayTalk: boolean;
  emit: (event: MessageEvent) => Promise<void>;
}): Promise<void> {
  const { interaction } = params;
  const name = `/${interaction.commandName}`;
  try {
    await params.emit(params.event);
  } catch (error) {
    await interaction.reply({ content: `Could not take ${name} right now (the gateway is restarting or busy). Please try again in a moment.`, flags: MessageFlags.Ephemeral });
    throw error;
  }
  const content = params.mayTalk
    ? `Running ${name}…`
    : params.event.chat.kind === 'dm'
      ? 'You are not on this bot\'s allowlist yet; if pairing is on, the bot answers with a code its owner can approve.'
      : 'This bot only answers people its owner allowed (allowed_users or allowed_roles); ask the owner to add you.';
  await interaction.reply({ content, flags: MessageFlags.Ephemeral });
}
