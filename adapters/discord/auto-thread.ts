import { ChannelType, type Message } from 'discord.js';

/** Longest thread name the adapter picks (Discord allows 100). */
const MAX_NAME = 80;

/** Whether auto_thread applies to a message: a guild text or announcement channel, not already a thread. */
export function wantsThread(params: { message: Message }): boolean {
  const type = params.message.channel.type;
  return type === ChannelType.GuildText || type === ChannelType.GuildAnnouncement;
}

/** A thread name from the message's first line (mention stripped), or "Chat with <name>" when it has none. */
export function threadName(params: { text: string; author: string }): string {
  const line = params.text.split('\n').find((part) => part.trim() !== '')?.trim() ?? '';
  if (line === '') return `Chat with ${params.author}`.slice(0, MAX_NAME);
  return line.length > MAX_NAME ? `${line.slice(0, MAX_NAME - 1)}…` : line;
}

/** Opens a public thread from `message` and returns its channel id (the chat the conversation continues in). */
export async function openThread(params: { message: Message; text: string }): Promise<string> {
  const { message } = params;
  const thread = await message.startThread({ name: threadName({ text: params.text, author: message.author.globalName ?? message.author.username }) });
  return thread.id;
}
