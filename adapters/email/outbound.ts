import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type { ChatRef, OutboundAttachment } from '../../src/core/adapter.js';
import { renderHtml } from './html.js';
import { bracketed, trimReferences } from './message-id.js';
import { replySubject } from './subject.js';
import type { KnownMail, ThreadIndex } from './threads.js';

/** Where a mail goes and how it threads. */
export interface OutboundPlan {
  readonly to: string;
  readonly subject: string;
  /** The mail it answers (In-Reply-To), when any. */
  readonly inReplyTo?: string;
  /** References: the answered mail's References plus its id. */
  readonly references: readonly string[];
  /** The thread root (the session's thread id); undefined for a new conversation, which is its own root. */
  readonly root?: string;
  /** The known mail it answers, when any (its IMAP place is flagged after the send). */
  readonly answers?: KnownMail;
}

/**
 * How to send a message: a reply to `replyToId` (the inbound mail's id), else a follow-up in the chat's thread
 * (answering its latest known mail), else a new conversation with the chat's address. The mail always goes to the
 * chat's address (the session's person): other people in the thread (a Cc'd colleague answering all, a stranger
 * reusing a Message-ID) are never used as the recipient, and their mails are not what a reply threads under.
 */
export function planOutbound(params: { chat: ChatRef; replyToId?: string; index: ThreadIndex; newSubject: string }): OutboundPlan {
  const { chat, replyToId, index } = params;
  const peer = chat.id.toLowerCase();
  const known = replyToId !== undefined ? index.get({ id: replyToId }) : chat.threadId !== undefined ? index.latestIn({ root: chat.threadId, peer }) : undefined;
  const answers = known !== undefined && known.peer === peer ? known : undefined;
  if (answers !== undefined) {
    return {
      to: chat.id,
      subject: replySubject({ subject: answers.subject }),
      inReplyTo: answers.id,
      references: trimReferences({ ids: [...answers.references, answers.id] }),
      root: answers.root,
      answers,
    };
  }
  // The original was forgotten (index bounded or reset): still answer in its thread as far as we know it.
  const lost = replyToId ?? chat.threadId;
  if (lost !== undefined) {
    return { to: chat.id, subject: replySubject({ subject: undefined }), inReplyTo: lost, references: [...new Set([chat.threadId ?? lost, lost])], root: chat.threadId ?? lost };
  }
  return { to: chat.id, subject: params.newSubject, references: [] };
}

/** A new Message-ID (without brackets) in the bot's own domain. */
export function newMessageId(params: { address: string }): string {
  const domain = params.address.slice(params.address.lastIndexOf('@') + 1) || 'hermes.invalid';
  return `${randomUUID()}@${domain}`;
}

/**
 * The nodemailer message: plain text as written plus an HTML alternative rendered from its Markdown, threading
 * headers, files as MIME attachments, and RFC 3834 headers so other robots do not answer it (no reply loops).
 */
export function composeMail(params: {
  plan: OutboundPlan;
  messageId: string;
  from: { address: string; name?: string };
  text: string;
  attachments: readonly OutboundAttachment[];
}): Mail.Options {
  const { plan } = params;
  return {
    from: params.from.name !== undefined ? { name: params.from.name, address: params.from.address } : params.from.address,
    to: plan.to,
    subject: plan.subject,
    messageId: bracketed({ id: params.messageId }),
    ...(plan.inReplyTo !== undefined ? { inReplyTo: bracketed({ id: plan.inReplyTo }) } : {}),
    ...(plan.references.length > 0 ? { references: plan.references.map((id) => bracketed({ id })) } : {}),
    text: params.text,
    html: renderHtml({ markdown: params.text }),
    attachments: params.attachments.map((file) => ({ filename: path.basename(file.path), path: file.path })),
    headers: { 'Auto-Submitted': 'auto-replied', 'X-Auto-Response-Suppress': 'All' },
  };
}
