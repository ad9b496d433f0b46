import type { MessageEntity } from 'grammy/types';
import { badRequest } from './errors.js';
import { parseHtml } from './html.js';

/** Telegram's limits in UTF-16 code units, counted after markup is parsed. */
export const MAX_TEXT_LENGTH = 4096;
/** Caption limit for media messages. */
export const MAX_CAPTION_LENGTH = 1024;

/** Text as Telegram shows it. */
export interface FormattedText {
  /** The visible text. */
  shown: string;
  /** Its entities. */
  entities: MessageEntity[];
}

/**
 * Applies parse_mode and Telegram's checks to a message text or caption, throwing the ApiError Telegram would
 * answer: "can't parse entities: ...", "message text is empty", "message is too long", "message caption is too long".
 * parse_mode Markdown/MarkdownV2 are refused with a 400 that says the fake does not implement them.
 */
export function formatText(params: {
  text: string;
  parseMode: string | undefined;
  entities: unknown[] | undefined;
  kind: 'text' | 'caption';
}): FormattedText {
  const mode = (params.parseMode ?? '').toLowerCase();
  let formatted: FormattedText;
  if (mode === '') {
    formatted = { shown: params.text, entities: (params.entities ?? []) as MessageEntity[] };
  } else if (mode === 'html') {
    const parsed = parseHtml({ html: params.text });
    if (!parsed.ok) throw badRequest(`can't parse entities: ${parsed.error}`);
    formatted = { shown: parsed.text, entities: parsed.entities };
  } else if (mode === 'markdown' || mode === 'markdownv2') {
    throw badRequest(
      `FakeTelegram does not implement parse_mode ${params.parseMode ?? ''}; use HTML or add it to test/fakes/telegram/text.ts`,
    );
  } else {
    throw badRequest(`unsupported parse_mode`);
  }
  if (params.kind === 'text') {
    if (formatted.shown.trim() === '') throw badRequest('message text is empty');
    if (formatted.shown.length > MAX_TEXT_LENGTH) throw badRequest('message is too long');
  } else if (formatted.shown.length > MAX_CAPTION_LENGTH) {
    throw badRequest('message caption is too long');
  }
  return formatted;
}
