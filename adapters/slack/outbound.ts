import path from 'node:path';
import type { Block, KnownBlock } from '@slack/types';
import { ErrorCode, type WebClient } from '@slack/web-api';
import type { ChatRef, OutboundAttachment, OutboundChoice } from '../../src/core/adapter.js';
import { RateLimitError } from '../../src/core/errors.js';
import { choiceBlocks } from './blocks.js';

/**
 * Markdown as Slack mrkdwn (bold, italics, links, code), through slackify-markdown; never empty. Broadcast mentions
 * (`<!channel>`, `<!here>`, `<!everyone>`, `<!subteam^…>`), which slackify passes through as Slack syntax, are
 * shown as text instead (a word joiner after `<`), like Discord's allowed mentions: text the model wrote or a command
 * quoted in a tool line or approval question never notifies a whole channel. slackify-markdown (unified and
 * micromark, ~10 MB of RSS) loads with the first message sent, not when the gateway starts.
 */
export async function toMrkdwn(params: { markdown: string }): Promise<string> {
  const { default: slackifyMarkdown } = await import('slackify-markdown');
  // Inside code spans slackify leaves `<` as it is: escaped here (Slack reads `<…>` as syntax everywhere).
  const converted = slackifyMarkdown(params.markdown.replace(/<!/g, '<\u2060!')).replace(/<\u2060!/g, '&lt;\u2060!').trimEnd();
  return converted.trim() === '' ? (params.markdown.trim() === '' ? '…' : params.markdown) : converted;
}

/** A Web API rate limit becomes RateLimitError (nothing was done; the pacer waits and calls again). */
export function translateSlackError(params: { error: unknown; method: string }): unknown {
  const { error } = params;
  if (typeof error === 'object' && error !== null && 'code' in error && error.code === ErrorCode.RateLimitedError) {
    const retryAfterS = 'retryAfter' in error && typeof error.retryAfter === 'number' ? error.retryAfter : 1;
    return new RateLimitError({ retryAfterMs: retryAfterS * 1000, method: params.method, message: `Slack ${params.method} rate limited` });
  }
  return error;
}

/** The metadata event type of the gateway's reply messages (its payload carries the send's nonce). */
export const replyEventType = 'hermes_reply';

/** Sends, edits and uploads through the Web API. */
export class SlackOutbound {
  private readonly client: WebClient;

  constructor(params: { client: WebClient }) {
    this.client = params.client;
  }

  /** Posts a message (in the chat's thread, if any), with the nonce as its metadata and any buttons as blocks; returns its ts. */
  async post(params: { chat: ChatRef; text: string; nonce?: string; choices?: readonly OutboundChoice[] }): Promise<string> {
    try {
      const text = await toMrkdwn({ markdown: params.text });
      const choices = params.choices ?? [];
      const result = await this.client.chat.postMessage({
        channel: params.chat.id,
        text,
        ...(choices.length > 0 ? { blocks: choiceBlocks({ mrkdwn: text, choices }) } : {}),
        ...(params.chat.threadId !== undefined ? { thread_ts: params.chat.threadId } : {}),
        ...(params.nonce !== undefined ? { metadata: { event_type: replyEventType, event_payload: { nonce: params.nonce } } } : {}),
        unfurl_links: false,
      });
      if (result.ts === undefined) throw new Error('Slack chat.postMessage returned no ts');
      return result.ts;
    } catch (error) {
      throw translateSlackError({ error, method: 'chat.postMessage' });
    }
  }

  /**
   * Replaces a message's text. With choices its buttons are (re)drawn; with `dropBlocks` its blocks are removed
   * (an update without `blocks` keeps a message's blocks); otherwise only the text goes, as a streamed edit does.
   */
  async update(params: { chat: ChatRef; ts: string; text: string; choices?: readonly OutboundChoice[]; dropBlocks?: boolean }): Promise<void> {
    const text = await toMrkdwn({ markdown: params.text });
    const choices = params.choices ?? [];
    const blocks = choices.length > 0 ? { blocks: choiceBlocks({ mrkdwn: text, choices }) } : params.dropBlocks === true ? { blocks: [] } : {};
    try {
      await this.client.chat.update({ channel: params.chat.id, ts: params.ts, text, ...blocks });
    } catch (error) {
      throw translateSlackError({ error, method: 'chat.update' });
    }
  }

  /** Replaces a message's blocks as they are, keeping its text (a retired question loses its buttons). */
  async replaceBlocks(params: { channel: string; ts: string; text: string; blocks: readonly unknown[] }): Promise<void> {
    try {
      await this.client.chat.update({ channel: params.channel, ts: params.ts, text: params.text, blocks: params.blocks as (Block | KnownBlock)[] });
    } catch (error) {
      throw translateSlackError({ error, method: 'chat.update' });
    }
  }

  /** Shows a notice only `user` sees, in the channel (and thread) of the message they acted on. */
  async ephemeral(params: { channel: string; user: string; text: string; threadTs?: string }): Promise<void> {
    try {
      await this.client.chat.postEphemeral({
        channel: params.channel,
        user: params.user,
        text: params.text,
        ...(params.threadTs !== undefined ? { thread_ts: params.threadTs } : {}),
      });
    } catch (error) {
      throw translateSlackError({ error, method: 'chat.postEphemeral' });
    }
  }

  /** Uploads one file into the chat (files upload v2); returns the file id. */
  async upload(params: { chat: ChatRef; attachment: OutboundAttachment; comment?: string }): Promise<string> {
    try {
      const common = {
        channel_id: params.chat.id,
        file: params.attachment.path,
        filename: path.basename(params.attachment.path),
        ...(params.comment !== undefined ? { initial_comment: params.comment } : {}),
      };
      const threadTs = params.chat.threadId;
      const result = await (threadTs !== undefined ? this.client.filesUploadV2({ ...common, thread_ts: threadTs }) : this.client.filesUploadV2(common));
      const first = (result.files as readonly { files?: readonly { id?: string }[] }[] | undefined)?.[0]?.files?.[0]?.id;
      return first ?? `file:${path.basename(params.attachment.path)}`;
    } catch (error) {
      throw translateSlackError({ error, method: 'files.uploadV2' });
    }
  }
}
