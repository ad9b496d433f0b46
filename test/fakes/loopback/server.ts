import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An update as the fake platform hands it out. */
export interface LoopbackUpdate {
  readonly update_id: number;
  readonly message: { readonly id: string; readonly chat_id: string; readonly sender_id: string; readonly text: string };
}

/** A bot message as the fake platform stores it. */
export interface LoopbackMessage {
  readonly id: string;
  readonly chatId: string;
  text: string;
  edits: number;
  readonly history: string[];
}

/**
 * A tiny chat platform over loopback HTTP with Telegram's delivery semantics: updates are handed out by
 * long poll until a later poll's offset acknowledges them. Used where the gateway runs in another process.
 */
export class LoopbackPlatform {
  private server: Server | null = null;
  private nextUpdate = 1;
  private nextMessage = 1;
  private updates: LoopbackUpdate[] = [];
  private pollers: (() => void)[] = [];
  readonly messages = new Map<string, LoopbackMessage>();
  readonly calls: { method: string; body: Record<string, unknown>; at: number }[] = [];
  /** Awaited on each sendMessage before the message exists: a promise that never settles holds it (the sender dies waiting). */
  beforeSend: ((body: Record<string, unknown>) => Promise<void> | undefined) | null = null;
  baseURL = '';

  async start(): Promise<void> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const p of this.pollers.splice(0)) p();
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** A user writes to the bot. */
  pushUpdate(params: { chatId: string; senderId: string; text: string; messageId?: string }): LoopbackUpdate {
    const update: LoopbackUpdate = {
      update_id: this.nextUpdate++,
      message: { id: params.messageId ?? `m${this.nextUpdate}`, chat_id: params.chatId, sender_id: params.senderId, text: params.text },
    };
    this.updates.push(update);
    for (const p of this.pollers.splice(0)) p();
    return update;
  }

  /** Updates not yet acknowledged. */
  get unacknowledged(): number {
    return this.updates.length;
  }

  /** Bot messages in a chat, oldest first. */
  chat(chatId: string): LoopbackMessage[] {
    return [...this.messages.values()].filter((m) => m.chatId === chatId);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = (chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {}) as Record<string, unknown>;
    const method = (req.url ?? '/').slice(1);
    this.calls.push({ method, body, at: Date.now() });
    const reply = (status: number, payload: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    switch (method) {
      case 'getUpdates': {
        const offset = Number(body['offset'] ?? 0);
        this.updates = this.updates.filter((u) => u.update_id >= offset);
        if (this.updates.length === 0) {
          await new Promise<void>((resolve) => {
            this.pollers.push(resolve);
            setTimeout(resolve, Number(body['timeout_ms'] ?? 1000));
          });
        }
        reply(200, { ok: true, result: this.updates.filter((u) => u.update_id >= offset) });
        return;
      }
      case 'sendMessage': {
        await this.beforeSend?.(body);
        const id = `b${this.nextMessage++}`;
        const text = String(body['text'] ?? '');
        this.messages.set(id, { id, chatId: String(body['chat_id']), text, edits: 0, history: [text] });
        reply(200, { ok: true, result: { message_id: id } });
        return;
      }
      case 'editMessageText': {
        const message = this.messages.get(String(body['message_id']));
        if (!message) {
          reply(400, { ok: false, description: 'message to edit not found' });
          return;
        }
        message.text = String(body['text'] ?? '');
        message.edits += 1;
        message.history.push(message.text);
        reply(200, { ok: true, result: true });
        return;
      }
      case 'sendChatAction':
        reply(200, { ok: true, result: true });
        return;
      default:
        reply(404, { ok: false, description: `unknown method ${method}` });
    }
  }
}
