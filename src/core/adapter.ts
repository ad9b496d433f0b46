import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { RejectionRecorder } from './rejection.js';

/** What kind of conversation a chat is. Groups and channels share sessions per sender. */
export const chatKindSchema = z.enum(['dm', 'group', 'channel']);
export type ChatKind = z.infer<typeof chatKindSchema>;

/** Where a message lives on its platform. */
export const chatRefSchema = z.object({
  id: z.string().min(1),
  kind: chatKindSchema,
  threadId: z.string().min(1).optional(),
});
export type ChatRef = z.infer<typeof chatRefSchema>;

/** Who sent a message. */
export const senderSchema = z.object({
  /** The platform's stable user id. */
  id: z.string().min(1),
  /** Display name: for people to read, never for authorization (anyone can change it). */
  name: z.string().optional(),
  /** A handle the platform keeps unique (Telegram @username), without '@'; allowlists may use it. */
  username: z.string().min(1).optional(),
  /** The sender's role ids in this chat's community (Discord guild roles); allowlists may name them as `role:<id>`. */
  roles: z.array(z.string().min(1)).optional(),
  isBot: z.boolean(),
});
export type Sender = z.infer<typeof senderSchema>;

/** The kind of a file, deciding how a platform shows it. */
export const mediaKindSchema = z.enum(['image', 'audio', 'voice', 'video', 'document']);
export type MediaKind = z.infer<typeof mediaKindSchema>;

/** A file that came with a message, already downloaded into the profile's cache. */
export const mediaItemSchema = z.object({
  path: z.string().min(1),
  kind: mediaKindSchema,
  mimeType: z.string().optional(),
  fileName: z.string().optional(),
  sizeBytes: z.number().int().nonnegative().optional(),
});
export type MediaItem = z.infer<typeof mediaItemSchema>;

/** Who started a turn the system made itself (runner.inject): a job's run, the heartbeat, or a check. */
export const systemOriginSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('job'), jobId: z.string().min(1), runId: z.number().int().nonnegative() }),
  z.object({ kind: z.literal('heartbeat') }),
  z.object({ kind: z.literal('check'), name: z.string().min(1) }),
]);
export type SystemOrigin = z.infer<typeof systemOriginSchema>;

/** One inbound message, the same shape for every platform. */
export const messageEventSchema = z.object({
  platform: z.string().min(1),
  messageId: z.string().min(1),
  chat: chatRefSchema,
  sender: senderSchema,
  text: z.string(),
  media: z.array(mediaItemSchema),
  replyToId: z.string().optional(),
  mentioned: z.boolean(),
  receivedAt: z.number().int().nonnegative(),
  /**
   * More parts may follow within moments (an album, a long text the client split, a person typing in bursts):
   * the gateway waits the adapter's merge window of quiet, then answers all of them as one turn.
   */
  continues: z.boolean().optional(),
  /** Set on turns the system started (runner.inject): no sender gate, no reply-to, no reactions, nothing sent when silent. */
  system: systemOriginSchema.optional(),
  raw: z.unknown().optional(),
});
export type MessageEvent = z.infer<typeof messageEventSchema>;

/** What a platform can do; delivery adapts to it. */
export interface AdapterCapabilities {
  /** Sent messages can be edited (streaming by edits). */
  readonly edit: boolean;
  /** Replies can go into threads. */
  readonly threads: boolean;
  /** A typing indicator exists. */
  readonly typing: boolean;
  /** Messages can get reactions. */
  readonly reactions: boolean;
  /** Files can be sent. */
  readonly media: boolean;
  /** Spoken replies (/voice) can be sent, as audio files; false: never, even with `media` (SMS: MMS audio is dear and few phones play OGG). */
  readonly voice?: boolean;
  /** Longest text one message may carry, in the platform's own units. */
  readonly maxMessageLength: number;
  /** What formatting the platform renders. */
  readonly markup: 'none' | 'markdown' | 'html' | 'mrkdwn';
  /** Messages can carry buttons (`choices`) whose presses come back through `choose`; without it they are left off. */
  readonly buttons?: boolean;
}

/** A button under a message (an approval request, a clarify question). */
export interface OutboundChoice {
  /** What a press reports back, opaque to the adapter: at most 64 bytes (Telegram's callback_data limit). */
  readonly id: string;
  /** The button's label, as the user sees it. */
  readonly label: string;
}

/** A press of a button a message carried. */
export interface ChoiceEvent {
  readonly platform: string;
  readonly chat: ChatRef;
  /** Who pressed it (not necessarily whom it was asked of: handlers check). */
  readonly sender: Sender;
  /** The message that carried the button. */
  readonly messageId: string;
  /** The pressed button's `id`. */
  readonly choiceId: string;
}

/** How the gateway answers a press. */
export interface ChoiceAnswer {
  /** A short notice the platform shows the presser where it can (Telegram's callback answer, an ephemeral message). */
  readonly notice?: string;
  /**
   * The press belongs to nothing pending (answered before, expired, from before a restart): the adapter removes the
   * message's buttons, so none is left that looks as if it still acts.
   */
  readonly retire?: boolean;
}

/** A file to send. */
export interface OutboundAttachment {
  /** The file the platform uploads (a checked copy of the one the reply named, when staged). */
  readonly path: string;
  /** The path the reply's MEDIA line named, when `path` is a copy of it: what the turn's journal records. */
  readonly sourcePath?: string;
  readonly kind: MediaKind;
  readonly caption?: string;
}

/** A message to send. */
export interface OutboundMessage {
  readonly chat: ChatRef;
  readonly text: string;
  readonly replyToId?: string;
  readonly attachments?: readonly OutboundAttachment[];
  /** Buttons under the message (only where `capabilities.buttons`). */
  readonly choices?: readonly OutboundChoice[];
  /** A random marker (at most 25 characters) the platform keeps with the message, where it can: Discord's nonce, Slack's metadata. */
  readonly nonce?: string;
}

/** A send whose answer never arrived (the process died, or the connection broke, while the call was in flight). */
export interface InterruptedSend {
  readonly chat: ChatRef;
  /** The nonce the send carried. */
  readonly nonce: string;
  /** The text it sent. */
  readonly text: string;
  readonly replyToId?: string;
  /** The newest platform message id known in the chat before the send (the message answered, or the reply's previous part). */
  readonly afterId?: string;
  /** When the send was journaled (ms since the epoch). */
  readonly sentAt: number;
  /** Ids that belong to other sends (the outbox's, in this chat): never to be taken for this one. */
  readonly exclude: ReadonlySet<string>;
  /** The reply no longer needs this part: a message found is closed by the caller, and none may be left newly created. */
  readonly retire?: boolean;
}

/** An edit of a message the adapter sent earlier. */
export interface EditRequest {
  readonly chat: ChatRef;
  readonly messageId: string;
  readonly text: string;
  /** The buttons the message shows after the edit; absent: none (an edit of a message that had buttons removes them). */
  readonly choices?: readonly OutboundChoice[];
}

/** The adapter's state as it reports it to its supervisor. */
export type AdapterReport =
  | { readonly state: 'connected' }
  | { readonly state: 'reconnecting'; readonly reason: string };

/** A small persistent key/value space of one adapter (resume points, command-menu hashes); survives restarts. */
export interface AdapterStorage {
  get(params: { name: string }): string | undefined;
  set(params: { name: string; value: string }): void;
}

/**
 * What became of a message `emit` handed over (the gateway's accept result): `queued` for a turn (its end is told
 * through `turnEnded`), `command` (answered at once by a message replying to it), `unauthorized` (the sender may not
 * talk: dropped, perhaps offered pairing), `duplicate` (a redelivery of one already taken), `deferred` (journaled while
 * the gateway drains: answered after its next start), `answer` (it answered a question waiting in the chat, no reply of its own).
 */
export type EmitOutcome = 'queued' | 'duplicate' | 'unauthorized' | 'command' | 'deferred' | 'answer';

/** What `start` gets from the runner. */
export interface AdapterStartParams {
  /** Aborted when the adapter must stop; `start` then resolves. */
  readonly signal: AbortSignal;
  /**
   * Hands one inbound message to the gateway. Resolves once the message is durably journaled:
   * only then may the adapter acknowledge it to its platform.
   */
  readonly emit: (event: MessageEvent) => Promise<void>;
  /**
   * `emit` that also tells what became of the message (given by the gateway's runner; absent where a caller of `start`
   * does not tell): for platforms whose answer is the response to the request that carried the message (the HTTP API).
   */
  readonly emitWithOutcome?: (event: MessageEvent) => Promise<EmitOutcome>;
  /** Tells the supervisor about connection changes. */
  readonly report: (report: AdapterReport) => void;
  /** This adapter's persistent key/value space. */
  readonly storage: AdapterStorage;
  /**
   * Whether a sender may reach the agent (allowlist or approved pairing). Adapters skip costly work for the
   * others (no file downloads for strangers) but still emit their messages, so the gateway can answer pairing.
   */
  readonly mayTalk: (params: { sender: Sender }) => boolean;
  /** Hands a button press to the gateway (adapters with `capabilities.buttons`); the adapter then acknowledges it with the answer. */
  readonly choose: (event: ChoiceEvent) => Promise<ChoiceAnswer>;
}

/** One messaging platform. Every adapter passes the shared contract suite. */
export interface PlatformAdapter {
  /** Platform name, also the first part of session keys (e.g. "telegram"). */
  readonly name: string;
  readonly capabilities: AdapterCapabilities;
  /**
   * True when the platform reads an attachment's file after `send` resolved (SMS: Twilio fetches MMS media by link
   * later). Its files are then left in the cache (pruned with it) instead of being removed after the send.
   */
  readonly readsAttachmentsLater?: boolean;
  /**
   * Connects and receives until `signal` aborts (then resolves). Rejects when the connection
   * fails; the supervisor restarts it with backoff. Calls `report({state:'connected'})` when live.
   */
  start(params: AdapterStartParams): Promise<void>;
  /** Sends a message. Throws RateLimitError on flood control (nothing was sent). */
  send(message: OutboundMessage): Promise<{ messageId: string }>;
  /** Replaces a sent message's text. "Not modified" counts as success. Throws RateLimitError on flood control. */
  edit(request: EditRequest): Promise<void>;
  /**
   * Finds the message an interrupted send created, so it is edited rather than left orphaned beside a new one:
   * undefined when the platform shows none (the caller then sends anew). Throws only when it could not tell yet
   * (rate limit, network): the caller keeps the send pending and asks again.
   */
  resolveSend?(send: InterruptedSend): Promise<{ messageId: string } | undefined>;
  /** Shows a typing indicator for a few seconds. Throws RateLimitError on flood control (the chat is then held until retry_after). */
  typing?(params: { chat: ChatRef }): Promise<void>;
  /** Clears a typing/thinking indicator that does not expire by itself (called when the turn ends, also on error). */
  typingDone?(params: { chat: ChatRef }): Promise<void>;
  /**
   * Called when a turn that answered messages of this adapter has ended, after its reply was delivered as far as it
   * will be (the final edit is done): also after an error, a /stop or an interrupt, and for a turn that sent nothing.
   * `messageIds` are the inbound messages it answered: its own, the parts merged into it and the messages steered into
   * it. Not called for a turn a shutdown left open (the next start replays it). Platforms that answer per request (the
   * HTTP API) close the request here. Must not throw.
   */
  turnEnded?(params: { chat: ChatRef; messageIds: readonly string[]; outcome: 'delivered' | 'silent' | 'error' | 'stopped' | 'undelivered' }): void;
  /** Adds a reaction to a message. */
  react?(params: { chat: ChatRef; messageId: string; emoji: string }): Promise<void>;
  /** Removes a reaction the bot added. */
  unreact?(params: { chat: ChatRef; messageId: string; emoji: string }): Promise<void>;
  /**
   * Shows one tool activity line itself, outside the reply (a terminal prints it dimmed on its own line). Without it,
   * a platform that edits shows the lines in the reply being streamed, and one that cannot edit shows none.
   */
  showToolProgress?(params: { chat: ChatRef; line: string }): void;
  /** The least time between two calls into one chat, when the platform wants more than the configured interval. */
  minInterval?(params: { chatId: string }): number | undefined;
  /**
   * Adds the adapter's webhook routes to the gateway's HTTP server (called once, before it listens); rejected
   * requests are logged through `rejections` (rate-limited per source and reason).
   */
  registerRoutes?(params: { app: FastifyInstance; rejections: RejectionRecorder }): void;
}
