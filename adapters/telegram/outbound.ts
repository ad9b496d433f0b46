import { GrammyError, InputFile, type Api } from 'grammy';
import type { Logger } from 'pino';
import type { ChatRef, OutboundAttachment, OutboundChoice } from '../../src/core/adapter.js';
import { choiceRows } from '../kit/choice-rows.js';
import { classifyTelegramError } from './errors.js';
import { plainText, toTelegramHtml, visibleLength } from './format.js';
import { sendMethodFor, type SendFileMethod } from './media-kind.js';

/** Shown while a streamed reply has nothing visible yet (Telegram refuses empty text). */
const placeholder = '…';

/** Telegram's limit on a message's visible text, in UTF-16 units. */
const telegramLimit = 4096;

/**
 * The Markdown as Telegram HTML; a placeholder when nothing in it is visible yet (e.g. a lone ``` mid-stream).
 * Delivery split the Markdown at the limit; rendering can lengthen it (renumbered lists), and then the
 * Markdown goes as it is, unformatted, rather than being refused as too long.
 */
function rendered(params: { markdown: string }): string {
  const html = toTelegramHtml(params);
  const visible = visibleLength({ html });
  if (visible > telegramLimit) return escapeHtml(params.markdown);
  return visible > 0 ? html : placeholder;
}

/** The Markdown as plain text, never empty, never over the limit. */
function plain(params: { markdown: string }): string {
  const text = plainText(params);
  if (text.length > telegramLimit) return params.markdown;
  return text.trim() !== '' ? text : placeholder;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Where in a chat a message goes: its forum topic and the message it answers. */
function placement(params: { chat: ChatRef; replyToId?: string }): { message_thread_id?: number; reply_parameters?: { message_id: number; allow_sending_without_reply: true } } {
  const out: { message_thread_id?: number; reply_parameters?: { message_id: number; allow_sending_without_reply: true } } = {};
  if (params.chat.threadId !== undefined) out.message_thread_id = Number(params.chat.threadId);
  const replyTo = params.replyToId?.split(':').at(-1);
  if (replyTo !== undefined && /^\d+$/.test(replyTo)) out.reply_parameters = { message_id: Number(replyTo), allow_sending_without_reply: true };
  return out;
}

/** An inline keyboard carrying a message's buttons (callback_data = the choice id); nothing when there are none. */
function keyboard(params: { choices?: readonly OutboundChoice[] | undefined }): { reply_markup?: { inline_keyboard: { text: string; callback_data: string }[][] } } {
  const choices = params.choices ?? [];
  if (choices.length === 0) return {};
  return { reply_markup: { inline_keyboard: choiceRows({ choices }).map((row) => row.map((choice) => ({ text: choice.label, callback_data: choice.id }))) } };
}

/**
 * Sends and edits Telegram messages: Markdown rendered as Telegram HTML, with a plain-text retry when Telegram
 * rejects the markup; "message is not modified" counts as success; flood control becomes RateLimitError
 * (nothing was sent: the pacer waits and calls again).
 */
export class TelegramOutbound {
  private readonly api: Api;
  private readonly logger: Logger;

  constructor(params: { api: Api; logger: Logger }) {
    this.api = params.api;
    this.logger = params.logger;
  }

  /** Sends a text message; returns its message id. */
  async sendText(params: { chat: ChatRef; text: string; replyToId?: string; choices?: readonly OutboundChoice[] }): Promise<string> {
    const where = { ...placement(params), ...keyboard(params) };
    const sent = await this.withMarkupFallback({
      method: 'sendMessage',
      html: () => this.api.sendMessage(params.chat.id, rendered({ markdown: params.text }), { ...where, parse_mode: 'HTML' }),
      plain: () => this.api.sendMessage(params.chat.id, plain({ markdown: params.text }), where),
    });
    if (sent === undefined) throw new Error('Telegram sendMessage returned no message');
    return String(sent.message_id);
  }

  /**
   * Replaces a message's text ("message is not modified" counts as done). The buttons it shows after are `choices`:
   * an edit without reply_markup removes an inline keyboard, so an edit without choices leaves none.
   */
  async editText(params: { chat: ChatRef; messageId: string; text: string; choices?: readonly OutboundChoice[] }): Promise<void> {
    const id = Number(params.messageId);
    const markup = keyboard(params);
    await this.withMarkupFallback({
      method: 'editMessageText',
      html: () => this.api.editMessageText(params.chat.id, id, rendered({ markdown: params.text }), { parse_mode: 'HTML', ...markup }),
      plain: () => this.api.editMessageText(params.chat.id, id, plain({ markdown: params.text }), markup),
      notModifiedIsDone: true,
    });
  }

  /** Removes a message's buttons, keeping its text ("message is not modified": it had none; done). */
  async removeButtons(params: { chatId: string; messageId: string }): Promise<void> {
    try {
      await this.api.editMessageReplyMarkup(params.chatId, Number(params.messageId));
    } catch (error) {
      if (classifyTelegramError({ error, method: 'editMessageReplyMarkup' }).kind === 'not-modified') return;
      throw this.translate({ error, method: 'editMessageReplyMarkup' });
    }
  }

  /** Answers a callback query (stops the button's spinner), with a short notice the presser sees when given. */
  async answerPress(params: { queryId: string; notice?: string }): Promise<void> {
    try {
      await this.api.answerCallbackQuery(params.queryId, params.notice !== undefined ? { text: params.notice.slice(0, 200) } : {});
    } catch (error) {
      throw this.translate({ error, method: 'answerCallbackQuery' });
    }
  }

  /**
   * Edits a message to `text`, telling what the message was: the bot's with exactly this text ('same': nothing
   * changed), the bot's with another text ('edited': it now shows `text`), not the bot's ('not-ours'), the bot's
   * without text ('no-text'), or none ('missing'). Other failures are thrown as editText throws them.
   */
  async probeText(params: { chat: ChatRef; messageId: string; text: string }): Promise<'same' | 'edited' | 'not-ours' | 'no-text' | 'missing'> {
    const id = Number(params.messageId);
    try {
      const result = await this.withMarkupFallback({
        method: 'editMessageText',
        html: () => this.api.editMessageText(params.chat.id, id, rendered({ markdown: params.text }), { parse_mode: 'HTML' }),
        plain: () => this.api.editMessageText(params.chat.id, id, plain({ markdown: params.text })),
        notModifiedIsDone: true,
      });
      return result === undefined ? 'same' : 'edited';
    } catch (error) {
      if (!(error instanceof TelegramApiError) || error.code !== 400) throw error;
      if (/message can't be edited/i.test(error.description)) return 'not-ours';
      if (/message to edit not found/i.test(error.description)) return 'missing';
      if (/there is no text in the message to edit/i.test(error.description)) return 'no-text';
      throw error;
    }
  }

  /** Sends one file the way Telegram shows its kind best (a photo Telegram refuses goes as a document); returns the message id. */
  async sendFile(params: { chat: ChatRef; attachment: OutboundAttachment; replyToId?: string; choices?: readonly OutboundChoice[] }): Promise<string> {
    const method = sendMethodFor({ kind: params.attachment.kind, path: params.attachment.path });
    try {
      return await this.sendFileAs({ ...params, method });
    } catch (error) {
      const failure = classifyTelegramError({ error, method });
      if (method === 'sendPhoto' && failure.kind === 'other' && isBadRequest(error)) {
        this.logger.warn({ err: this.translate({ error, method }) }, 'Telegram refused the photo; sending it as a document');
        try {
          return await this.sendFileAs({ ...params, method: 'sendDocument' });
        } catch (documentError) {
          throw this.translate({ error: documentError, method: 'sendDocument' });
        }
      }
      throw this.translate({ error, method });
    }
  }

  private async sendFileAs(params: { chat: ChatRef; attachment: OutboundAttachment; replyToId?: string; choices?: readonly OutboundChoice[]; method: SendFileMethod }): Promise<string> {
    const { chat, attachment } = params;
    const file = new InputFile(attachment.path);
    const extra = { ...placement(params), ...keyboard(params), ...(attachment.caption ? { caption: attachment.caption } : {}) };
    const sent = await (async () => {
      switch (params.method) {
        case 'sendPhoto':
          return this.api.sendPhoto(chat.id, file, extra);
        case 'sendVoice':
          return this.api.sendVoice(chat.id, file, extra);
        case 'sendAudio':
          return this.api.sendAudio(chat.id, file, extra);
        case 'sendDocument':
          return this.api.sendDocument(chat.id, file, extra);
      }
    })();
    return String(sent.message_id);
  }

  private async withMarkupFallback<T>(params: { method: string; html: () => Promise<T>; plain: () => Promise<T>; notModifiedIsDone?: boolean }): Promise<T | undefined> {
    const attempt = async (call: () => Promise<T>): Promise<{ ok: true; value: T | undefined } | { ok: false; error: unknown }> => {
      try {
        return { ok: true, value: await call() };
      } catch (error) {
        const kind = classifyTelegramError({ error, method: params.method }).kind;
        if (kind === 'not-modified' && params.notModifiedIsDone === true) return { ok: true, value: undefined };
        return { ok: false, error };
      }
    };
    const html = await attempt(params.html);
    if (html.ok) return html.value;
    if (classifyTelegramError({ error: html.error, method: params.method }).kind !== 'bad-markup') throw this.translate({ error: html.error, method: params.method });
    this.logger.warn({ method: params.method, err: this.translate({ error: html.error, method: params.method }) }, 'Telegram rejected the formatting; sending plain text');
    const plainResult = await attempt(params.plain);
    if (plainResult.ok) return plainResult.value;
    throw this.translate({ error: plainResult.error, method: params.method });
  }

  /**
   * Flood control becomes RateLimitError; other Bot API errors become a TelegramApiError that keeps the code and
   * description but not grammy's payload (the whole message text, which must not end up in logs).
   */
  private translate(params: { error: unknown; method: string }): unknown {
    const failure = classifyTelegramError(params);
    if (failure.kind === 'rate-limited') return failure.error;
    if (params.error instanceof GrammyError) {
      return new TelegramApiError({ method: params.method, code: params.error.error_code, description: params.error.description });
    }
    return params.error;
  }
}

/** A Bot API error without the request payload. */
export class TelegramApiError extends Error {
  override readonly name = 'TelegramApiError';
  /** Telegram's error code (400, 403, ...). */
  readonly code: number;
  /** Telegram's description, e.g. "Bad Request: message to edit not found". */
  readonly description: string;

  constructor(params: { method: string; code: number; description: string }) {
    super(`Telegram ${params.method} failed: ${params.code} ${params.description}`);
    this.code = params.code;
    this.description = params.description;
  }
}

function isBadRequest(error: unknown): boolean {
  return error instanceof GrammyError && error.error_code === 400;
}
