import type { MessageEntity } from 'grammy/types';

const WORD = '\\p{L}\\p{N}_';
const BOT_COMMAND = new RegExp(`(?<![${WORD}/<>])/[a-zA-Z0-9_]{1,64}(?:@[a-zA-Z0-9_]{3,32})?(?![${WORD}/<>])`, 'gu');
const MENTION = new RegExp(`(?<![${WORD}])@[a-zA-Z0-9_]{2,32}(?![${WORD}])`, 'gu');

/**
 * The bot_command and mention entities Telegram's servers attach to a user's text (same patterns as tdlib's
 * match_bot_commands / match_mentions), sorted by offset; offsets and lengths are UTF-16 units.
 */
export function detectEntities(params: { text: string }): MessageEntity[] {
  const found: MessageEntity[] = [];
  for (const match of params.text.matchAll(BOT_COMMAND)) {
    found.push({ type: 'bot_command', offset: match.index, length: match[0].length });
  }
  for (const match of params.text.matchAll(MENTION)) {
    found.push({ type: 'mention', offset: match.index, length: match[0].length });
  }
  return found.sort((a, b) => a.offset - b.offset);
}
