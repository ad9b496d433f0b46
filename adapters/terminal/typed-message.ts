import type { AdapterCapabilities, MessageEvent } from '../../src/core/adapter.js';

/** The chat id every terminal message uses: one local conversation. */
export const terminalChatId = 'local';

/** What the terminal can do as a platform (both the line adapter and the TTY adapter; only `typing` differs). */
export const terminalCapabilities: Omit<AdapterCapabilities, 'typing'> = {
  edit: true,
  threads: false,
  reactions: false,
  media: true,
  maxMessageLength: 1_000_000,
  markup: 'markdown',
};

/** How to write replies in the terminal chat (the prompt's runtime layer): the text is printed as it is. */
export const terminalFormatting =
  'Replies are printed as they are in a terminal: Markdown is not rendered, so keep it light (short lists and code blocks are fine, no tables).';

/** The gateway message for text the local user typed: the `n`th of this run (`runId`), in the one local DM. */
export function typedMessage(params: { runId: string; n: number; user: string; text: string; now: number }): MessageEvent {
  const { user } = params;
  return {
    platform: 'terminal',
    messageId: `${params.runId}-${params.n}`,
    chat: { id: terminalChatId, kind: 'dm' },
    sender: { id: user, name: user, isBot: false },
    text: params.text,
    media: [],
    mentioned: true,
    receivedAt: params.now,
  };
}
