// Chats for paced load: each message goes to a chat with no turn running (the least recently freed one), so a slow
// answer never makes the next message of its chat interrupt or join it; a new chat is opened when none is free.
import { ask, type AskTimes } from './api-ask.js';
import type { ApiGatewayChild } from './api-child.js';

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

  /**
   * Asks message `n` on a free chat, which is given back once its answer ended; the answer's end goes into `ends`
   * (handled now, so a stream failing mid-run is no unhandled rejection: the caller's Promise.all over `ends` throws it).
   * An error before the answer began leaves its chat out of the pool: the run fails anyway.
   */
  async ask(params: { child: Pick<ApiGatewayChild, 'completionsUrl' | 'authorization'>; n: number; ends: Promise<number>[] }): Promise<AskTimes> {
    const chat = this.take();
    const times = await ask({ child: params.child, session: chat, text: `message ${params.n}: please note this down` });
    const end = times.doneMs.then((ms) => {
      this.release({ chat });
      return ms;
    });
    end.catch(() => undefined);
    params.ends.push(end);
    return times;
  }

  private open(): string {
    return `${this.prefix}-${this.opened++}`;
  }
}
