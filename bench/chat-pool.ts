// Chats for paced load: each message goes to a chat with no turn running (the least recently freed one), so a slow
// answer never makes the next message of its chat interrupt or join it; a new chat is opened when none is free.

/** Chats named `<prefix>-<i>`, taken for one message and given back when its answer ended. */
export class ChatPool {
  private readonly prefix: string;
  private readonly idle: string[] = [];
  private opened = 0;

  /** `initial` chats to rotate over while they keep up. */
  constructor(params: { prefix: string; initial: number }) {
    this.prefix = params.prefix;
    for (let i = 0; i < params.initial; i++) this.idle.push(this.open());
  }

  /** How many chats were used in all. */
  get size(): number {
    return this.opened;
  }

  /** The chat free the longest, or a new one. */
  take(): string {
    return this.idle.shift() ?? this.open();
  }

  /** The chat's answer ended: it may take the next message. */
  release(params: { chat: string }): void {
    this.idle.push(params.chat);
  }

  private open(): string {
    return `${this.prefix}-${this.opened++}`;
  }
}
