import type { ChatMessage, UserMessage } from '../messages.js';

/** First line of every summary message: how a later compression recognises an earlier summary. */
export const summaryHeader = '[CONTEXT SUMMARY: hand-off note from an earlier context window]';

/** The framing under the header, so the model reads the note as background and does not redo old requests. */
export const summaryFraming =
  'Earlier messages of this conversation were compressed into the note below to save context. It is background, ' +
  'not a new request: do not redo anything it reports as done or asked earlier; continue from the most recent ' +
  'messages after it. The raw messages stay searchable with session_search.';

/** What replaces the middle when no summary could be made (the summary call failed or answered nothing). */
export const fallbackNote =
  'Earlier messages were removed to save context; a summary of them could not be made. Ask the user to restate ' +
  'anything from earlier that is still needed, or look it up with session_search.';

const prefix = `${summaryHeader}\n${summaryFraming}\n\n`;

/** The user message that carries a summary into the next context window. */
export function summaryMessage(params: { text: string }): UserMessage {
  return { role: 'user', content: `${prefix}${params.text}` };
}

/** True when a message is a summary made by `summaryMessage`. */
export function isSummaryMessage(message: ChatMessage): message is UserMessage {
  return message.role === 'user' && message.content.startsWith(summaryHeader);
}

/** The note inside a summary message, without header and framing. */
export function summaryText(message: UserMessage): string {
  if (message.content.startsWith(prefix)) return message.content.slice(prefix.length);
  return message.content.slice(summaryHeader.length).trim();
}
