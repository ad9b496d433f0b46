import type { Logger } from 'pino';
import type { AdapterEntry } from '../../src/core/platform.js';
import type { Profile } from '../../src/home/index.js';
import type { Clock } from '../../src/core/clock.js';

/** A person on the platform, with the DM chat the bot sees them in. */
export interface ContractUser {
  readonly id: string;
  readonly chatId: string;
}

/** A message the bot shows in a chat, as the user sees it. */
export interface ShownBotMessage {
  readonly text: string;
  readonly file?: { readonly name: string; readonly bytes: Buffer };
}

/**
 * What the adapter contract suite needs from a platform: its fake (or real local server), a way to act as a
 * user, and a way to read what the bot showed. One implementation per adapter.
 */
export interface ContractPlatform {
  /** The adapter entry for the gateway; `owner` is on its allowlist, unknown senders are ignored. */
  entry(params: { profile: Profile; clock: Clock; logger: Logger }): AdapterEntry;
  /** Someone the bot answers. */
  readonly owner: ContractUser;
  /** Someone not on the allowlist. */
  readonly stranger: ContractUser;
  /** Serve the gateway's HTTP server too (webhook adapters). */
  readonly needsHttp?: boolean;
  /** Tells a webhook platform where the gateway's HTTP server listens (called once it does, when `needsHttp`). */
  useGateway?(params: { port: number }): void;
  /**
   * The file the suite has the agent send with a MEDIA: line (default: report.txt). A platform that carries
   * only some kinds of files (SMS: pictures by MMS) names one it can.
   */
  readonly outboundFile?: { readonly name: string; readonly bytes: Buffer };
  /** The user writes to the bot (optionally with a file). */
  userSays(params: { user: ContractUser; text: string; file?: { bytes: Buffer; fileName: string } }): Promise<void>;
  /** The platform delivers the user's last message once more (a retry, a re-sent update). */
  redeliverLast(): Promise<void>;
  /** What the bot shows in a chat, oldest first. */
  botMessages(params: { chatId: string }): readonly ShownBotMessage[];
  /** The choice ids of the buttons a bot message shows now, in order (platforms whose adapter has `capabilities.buttons`). */
  buttonsOf?(params: { chatId: string; messageId: string }): readonly string[];
  /** The user presses the button with this choice id under a bot message, as the platform delivers it. */
  press?(params: { user: ContractUser; chatId: string; messageId: string; choiceId: string }): Promise<void>;
  /**
   * The platform answers each message with one reply however long (the HTTP API: one completion per request): the
   * long-answer test then checks that it arrives whole, in one message, instead of split at the limit.
   */
  readonly wholeReplies?: boolean;
  /** The platform carries no files either way (the HTTP API takes and gives text only): the file test is skipped. */
  readonly noFiles?: boolean;
  /** Length of shown text in the units the platform's limit counts. */
  visibleLength(params: { text: string }): number;
  /** Stops the platform's fake. */
  close(): Promise<void>;
}
