import path from 'node:path';
import type { Logger } from 'pino';
import type { MessageEvent, Sender } from '../../src/core/adapter.js';
import type { BoundedSet } from '../../src/util/bounded-set.js';
import type { FetchedMail } from './folder-reader.js';
import { readMail, untrustedText } from './inbound.js';
import { saveAttachments } from './media-in.js';
import { resolveRoot, type ThreadIndex } from './threads.js';

/** What turning a fetched mail into an event needs. */
export interface ReceiveDeps {
  readonly ownAddress: string;
  /** Require Authentication-Results to vouch for From; undefined = trust From (verify_sender: off). */
  readonly verifySender?: { readonly trustedServer?: string };
  readonly index: ThreadIndex;
  /** Message-IDs already handed on (a re-delivered or re-scanned copy is dropped). */
  readonly seen: BoundedSet<string>;
  /** Where attachments go: the profile cache's email folder. */
  readonly cacheDir: string;
  readonly maxAttachmentBytes: number;
  readonly mayTalk: (params: { sender: Sender }) => boolean;
  readonly now: () => number;
  readonly logger: Logger;
}

/**
 * One fetched mail → the event for the gateway, or undefined when it must not be answered (machine mail, the
 * bot's own, a copy already handled). The session is the thread: chat id = the sender's address, thread id =
 * the thread's root Message-ID. Strangers' attachments are never saved.
 */
export async function receiveMail(params: { fetched: FetchedMail; deps: ReceiveDeps }): Promise<MessageEvent | undefined> {
  const { fetched, deps } = params;
  const read = await readMail({
    raw: fetched.raw,
    ownAddress: deps.ownAddress,
    fallbackId: `${fetched.uidValidity}.${fetched.uid}.${encodeURIComponent(fetched.folder)}@hermes.invalid`,
    ...(deps.verifySender ? { verifySender: deps.verifySender } : {}),
  });
  if (read.kind === 'skip') {
    deps.logger.info({ uid: fetched.uid, messageId: read.messageId, reason: read.reason }, 'mail not answered: automated, own or unverified mail');
    return undefined;
  }
  const { mail } = read;
  if (deps.seen.has(mail.messageId)) {
    deps.logger.info({ uid: fetched.uid, messageId: mail.messageId }, 'mail with an already handled Message-ID ignored');
    return undefined;
  }
  const root = resolveRoot({ id: mail.messageId, inReplyTo: mail.inReplyTo, references: mail.references, rootOf: (id) => deps.index.rootOf({ id }) });
  const sender: Sender = { id: mail.from, ...(mail.fromName !== undefined ? { name: mail.fromName } : {}), isBot: false };
  const notes: string[] = [];
  let media: MessageEvent['media'] = [];
  const allowed = deps.mayTalk({ sender });
  if (allowed && mail.attachments.length > 0) {
    if (fetched.truncated) {
      notes.push(`[This mail is ${Math.round(fetched.size / 1024 / 1024)} MB, more than the gateway reads: its attachments were not saved.]`);
    } else {
      const saved = await saveAttachments({ attachments: mail.attachments, dir: path.join(deps.cacheDir, safeDirName({ address: mail.from })), messageId: mail.messageId, maxBytes: deps.maxAttachmentBytes });
      media = saved.media;
      notes.push(...saved.notes);
    }
  }
  // Only the people the agent talks to are indexed: a flood of strangers' mail must not churn the persisted index
  // (and their mail stays unread for the mailbox's human owner). A pairing reply to a stranger still threads by
  // In-Reply-To.
  if (allowed) {
    deps.index.remember({
      mail: { id: mail.messageId, root, subject: mail.subject, references: [...mail.references], peer: mail.from, source: { folder: fetched.folder, uidValidity: fetched.uidValidity, uid: fetched.uid } },
    });
  }
  return {
    platform: 'email',
    messageId: mail.messageId,
    chat: { id: mail.from, kind: 'dm', threadId: root },
    sender,
    text: untrustedText({ from: mail.from, subject: mail.subject, body: mail.body, notes }),
    media,
    ...(mail.inReplyTo[0] !== undefined ? { replyToId: mail.inReplyTo[0] } : {}),
    mentioned: true,
    receivedAt: deps.now(),
  };
}

/** A folder name for an address (no separators or leading dots). */
function safeDirName(params: { address: string }): string {
  return params.address.replace(/[^a-z0-9@._+-]/gi, '_').replace(/^\.+/, '_').slice(0, 100) || 'unknown';
}
