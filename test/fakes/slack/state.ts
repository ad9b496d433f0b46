import type { Clock } from '../../../src/core/clock.js';
import type { BotMessage, ChannelType, SlackFileObject, StoredFile, EphemeralMessage } from './types.js';

/** Who the fake is: bot, team and app ids plus tokens. */
export interface Identity {
  botToken: string;
  appToken: string;
  signingSecret: string;
  botUserId: string;
  botId: string;
  teamId: string;
  appId: string;
}

/** The workspace's mutable state: channels, message timestamps, bot messages, files, reactions, thread statuses. */
export class SlackState {
  /** Who the fake is. */
  readonly identity: Identity;
  /** The fake's clock. */
  readonly clock: Clock;
  /** Base URL of the HTTP server, set once it listens (http://127.0.0.1:PORT). */
  baseUrl = '';
  /** Channel kinds, by id. */
  readonly channels = new Map<string, ChannelType>();
  /** Users seen, by id. */
  readonly users = new Set<string>();
  /** Bot messages by `${channel}:${ts}`. */
  readonly messages = new Map<string, BotMessage>();
  /** Every ts that exists (bot or user), by `${channel}:${ts}`. */
  readonly knownTs = new Set<string>();
  /** Reaction names the bot added, by `${channel}:${ts}`. */
  readonly reactions = new Map<string, Set<string>>();
  /** assistant.threads.setStatus history, by `${channel}:${thread_ts}`. */
  readonly statuses = new Map<string, string[]>();
  /** Files by id. */
  readonly files = new Map<string, StoredFile>();
  /** Ephemeral messages the bot showed, oldest first. */
  readonly ephemerals: EphemeralMessage[] = [];
  private readonly lastTs = new Map<string, number>();
  private readonly listeners = new Set<() => void>();
  private seq = 0;

  constructor(params: { identity: Identity; clock: Clock }) {
    this.identity = params.identity;
    this.clock = params.clock;
  }

  /** A new id with Slack's shape: prefix + 10 uppercase alphanumerics. */
  nextId(params: { prefix: string }): string {
    this.seq += 1;
    return `${params.prefix}${this.seq.toString(36).toUpperCase().padStart(10, '0')}`;
  }

  /** A message ts for a channel, from the clock, strictly increasing within the channel ("1700000000.000100"). */
  nextTs(params: { channel: string }): string {
    const micros = Math.max(this.clock.now() * 1000, (this.lastTs.get(params.channel) ?? 0) + 1);
    this.lastTs.set(params.channel, micros);
    const ts = `${Math.floor(micros / 1_000_000)}.${String(micros % 1_000_000).padStart(6, '0')}`;
    this.knownTs.add(`${params.channel}:${ts}`);
    return ts;
  }

  /** The kind of a channel: registered, else derived from its id prefix (D im, G group, C channel), else undefined. */
  channelType(params: { channel: string }): ChannelType | undefined {
    const known = this.channels.get(params.channel);
    if (known) return known;
    if (/^D[A-Z0-9]+$/.test(params.channel)) return 'im';
    if (/^G[A-Z0-9]+$/.test(params.channel)) return 'group';
    if (/^C[A-Z0-9]+$/.test(params.channel)) return 'channel';
    return undefined;
  }

  /** Stores a new bot message and notifies waiters. */
  addMessage(params: { message: BotMessage }): void {
    this.messages.set(`${params.message.channel}:${params.message.ts}`, params.message);
    this.changed();
  }

  /** The bot messages of a channel, oldest first, as copies. */
  channelMessages(params: { channel: string }): BotMessage[] {
    return [...this.messages.values()]
      .filter((m) => m.channel === params.channel)
      .sort((a, b) => Number(a.ts) - Number(b.ts))
      .map((m) => ({ ...m, history: [...m.history], ...(m.files ? { files: m.files.map((f) => ({ ...f })) } : {}) }));
  }

  /** The public `file` object for a stored file. */
  fileObject(params: { file: StoredFile }): SlackFileObject {
    const { file } = params;
    const url = `${this.baseUrl}/files/${file.id}/${encodeURIComponent(file.name)}`;
    return {
      id: file.id,
      name: file.name,
      title: file.title,
      mimetype: file.mimetype,
      filetype: file.name.includes('.') ? (file.name.split('.').pop() ?? '').toLowerCase() : 'binary',
      size: file.bytes?.length ?? file.declaredLength,
      user: file.user,
      url_private: url,
      url_private_download: `${url}?download=1`,
      permalink: `${this.baseUrl}/archives/files/${file.id}`,
      mode: 'hosted',
      is_external: false,
    };
  }

  /** Registers a listener called after every change; returns its remover. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells waiters something changed. */
  changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
