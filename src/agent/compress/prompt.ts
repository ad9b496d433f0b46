import type { ChatMessage } from '../messages.js';

/** Characters of one message kept in the transcript sent to the summariser (its start and end). */
export const transcriptMessageMaxChars = 4000;

/** The summariser's system prompt: a hand-off note, not a chat reply. */
export const summarySystemPrompt =
  'You compress the middle of a long conversation between a user and an AI assistant into a hand-off note for ' +
  'the assistant itself, which will continue in a new context window without these messages. Write the note ' +
  'in the same language as the conversation, in these sections:\n' +
  '## Task: what the user wants overall and the current goal.\n' +
  '## Decisions: choices made and why.\n' +
  '## Facts: what was learned, including facts about the user (names, preferences, constraints), exact values, ' +
  'ids, paths, commands and errors worth keeping.\n' +
  '## Files and resources: files read, created or changed, and other things touched.\n' +
  '## Done: what is finished (these requests must NOT be carried out again).\n' +
  '## Left: what remains open or was promised, and the next step.\n' +
  'Report old requests as history, never as instructions. Be dense and factual; no greeting, no preamble.';

/** Shortens one text to its start and end with a marker between, when longer than `max`. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  return `${text.slice(0, half)}\n[… ${text.length - max} characters omitted …]\n${text.slice(-half)}`;
}

/** One message as transcript text. */
function renderMessage(message: ChatMessage): string {
  switch (message.role) {
    case 'system':
      return `[system]: ${clip(message.content, transcriptMessageMaxChars)}`;
    case 'user':
      return `[user]: ${clip(message.content, transcriptMessageMaxChars)}`;
    case 'assistant': {
      const lines: string[] = [];
      if (message.content) lines.push(`[assistant]: ${clip(message.content, transcriptMessageMaxChars)}`);
      for (const call of message.tool_calls ?? []) {
        lines.push(`[assistant calls ${call.function.name}]: ${clip(call.function.arguments, transcriptMessageMaxChars)}`);
      }
      return lines.join('\n');
    }
    case 'tool':
      return `[tool result${message.name ? ` of ${message.name}` : ''}]: ${clip(message.content, transcriptMessageMaxChars)}`;
  }
}

/** Default cap of the whole transcript sent to the summariser, in characters (about 50k tokens). */
export const defaultTranscriptMaxChars = 200_000;

/**
 * The messages as a plain transcript for the summariser, at most `maxChars` (default 200,000): when longer, the
 * oldest and newest messages are kept (half the room each) and a marker says how many between were left out.
 */
export function renderTranscript(params: { messages: readonly ChatMessage[]; maxChars?: number }): string {
  const maxChars = params.maxChars ?? defaultTranscriptMaxChars;
  const parts = params.messages.map(renderMessage).filter((line) => line !== '');
  const whole = parts.reduce((sum, part) => sum + part.length + 2, 0);
  if (whole <= maxChars) return parts.join('\n\n');
  const half = maxChars / 2;
  let front = 0;
  let used = 0;
  while (front < parts.length && used + (parts[front]?.length ?? 0) + 2 <= half) used += (parts[front++]?.length ?? 0) + 2;
  let back = parts.length;
  used = 0;
  while (back > front && used + (parts[back - 1]?.length ?? 0) + 2 <= half) used += (parts[--back]?.length ?? 0) + 2;
  const omitted = back - front;
  return [...parts.slice(0, front), `[… ${omitted} messages omitted here to fit the request …]`, ...parts.slice(back)].join('\n\n');
}

/**
 * The summary request: a fresh note from the middle, or, when an earlier summary exists, an UPDATE of that note with
 * the messages that came after it (so later compressions do not summarise a summary).
 */
export function summaryRequest(params: { previous: string | undefined; middle: readonly ChatMessage[]; maxTokens: number; transcriptMaxChars?: number }): {
  system: string;
  user: string;
} {
  const transcript = renderTranscript({ messages: params.middle, ...(params.transcriptMaxChars !== undefined ? { maxChars: params.transcriptMaxChars } : {}) });
  const limit = `Keep the note under ${params.maxTokens} tokens.`;
  if (params.previous === undefined) {
    return {
      system: summarySystemPrompt,
      user: `Write the hand-off note for this part of the conversation. ${limit}\n\n<conversation>\n${transcript}\n</conversation>`,
    };
  }
  return {
    system: summarySystemPrompt,
    user:
      'An earlier context window already produced the hand-off note below. UPDATE it with the newer messages that ' +
      'follow: keep what still holds, change what the newer messages changed, move finished items to Done, and ' +
      `add new facts and decisions. Answer with the whole updated note. ${limit}\n\n` +
      `<previous-summary>\n${params.previous}\n</previous-summary>\n\n<newer-messages>\n${transcript}\n</newer-messages>`,
  };
}
