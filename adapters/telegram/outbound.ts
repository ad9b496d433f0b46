import { InputFile, type Api } from 'grammy';
import type { Logger } from 'pino';
import type { ChatRef, OutboundAttachment } from '../../src/gateway/contracts.js';
import { classifyTelegramError } from './errors.js';
import { plainText, toTelegramHtml, visibleLength } from './format.js';
import { sendMethodFor } from './media-kind.js';

/** Shown while a streamed reply has nothing visible yet (Telegram refuses empty text). */
const placeholder = '…';

/** The Markdown as Telegram HTML; a placeholder when nothing in it is visible yet (e.g. a lone ``` mid-stream). */
function rendered(params: { markdown: string }): string {
  const html = toTelegramHtml(params);
  return visibleLength({ html }) > 0 ? html : placeholder;
}

/** The Markdown as plain text, never empty. */
function plain(params: { markdown: string }): string {
  const text = plainText(params);
  return text.trim() !== '' ? text : placeholder;
}

/** Where in a chat a message goes: its forum topic and the message it answers. */
function placement(params: { chat: ChatRef; replyToId?: string }): { message_thread_id?: number; reply_parameters?: { message_id: number; allow_sending_without_reply: true } } {
  const out: { message_thread_id?: number; reply_parameters?: { message_id: number; allow_sending_without_reply: true } } = {};
  if (params.chat.threadId !== undefined) out.message_thread_id = Number(params.chat.threadId);
  const replyTo = params.replyToId?.split(':').at(-1);
  if (replyTo !== undefined && /^\d+$/.test(replyTo)) out.reply_parameters = { message_id: Number(replyTo), allow_sending_without_reply: true };
  return out;
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
  async sendText(params: { chat: ChatRef; text: string; replyToId?: string }): Promise<string> {
    const where = placement(params);
    const sent = await this.withMarkupFallback({
      method: 'sendMessage',
      html: () => this.api.sendMessage(params.chat.id, rendered({ markdown: params.text }), { ...where, parse_mode: 'HTML' }),
      plain: () => this.api.sendMessage(params.chat.id, plain({ markdown: params.text }), where),
    });
    return String(sent.message_id);
  }

  /** Replaces a message's text. */
  async editText(params: { chat: ChatRef; messageId: string; text: string }): Promise<void> {
    const id = Number(params.messageId);
    try {
      await this.withMarkupFallback({
        method: 'editMessageText',
        html: () => this.api.editMessageText(params.chat.id, id, rendered({ markdown: params.text }), { parse_mode: 'HTML' }),
        plain: () => this.api.editMessageText(params.chat.id, id, plain({ markdown: params.text })),
      });
    } catch (error) {
      if (classifyTelegramError({ error, method: 'editMessageText' }).kind !== 'not-modified') throw error;
    }
  }

  /** Sends one file the way Telegram shows its kind best; returns the message id. */
  async sendFile(params: { chat: ChatRef; attachment: OutboundAttachment; replyToId?: string }): Promise<string> {
    const { chat, attachment } = params;
    const method = sendMethodFor({ kind: attachment.kind, path: attachment.path });
    const file = new InputFile(attachment.path);
    const extra = { ...placement(params), ...(attachment.caption ? { caption: attachment.caption } : {}) };
    try {
      const sent = await (async () => {
        switch (method) {
          case 'sendPhoto':
            return this.api.sendPhoto(chat.id, file, extra);
          case 'sendVoice':
            return this.api.sendVoice(chat.id, file, extra);
          case 'sendAudio':
            return this.api.sendAudio(chat.id, file, extra);
          case 'sendVideo':
            return this.api.sendVideo(chat.id, file, extra);
          case 'sendDocument':
            return this.api.sendDocument(chat.id, file, extra);
        }
      })();
      return String(sent.message_id);
    } catch (error) {
      throw this.translate({ error, method });
    }
  }

  private async withMarkupFallback<T>(params: { method: string; html: () => Promise<T>; plain: () => Promise<T> }): Promise<T> {
    try {
      return await params.html();
    } catch (error) {
      const failure = classifyTelegramError({ error, method: params.method });
      if (failure.kind !== 'bad-markup') throw this.translate({ error, method: params.method });
      this.logger.warn({ method: params.method, err: error }, 'Telegram rejected the formatting; sending plain text');
      try {
        return await params.plain();
      } catch (plainError) {
        throw this.translate({ error: plainError, method: params.method });
      }
    }
  }

  /** Flood control becomes RateLimitError; other errors pass through unchanged. */
  private translate(params: { error: unknown; method: string }): unknown {
    const failure = classifyTelegramError(params);
    return failure.kind === 'rate-limited' ? failure.error : params.error;
  }
}
