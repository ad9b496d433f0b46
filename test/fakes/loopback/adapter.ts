import type {
  AdapterCapabilities,
  AdapterStartParams,
  ChatRef,
  EditRequest,
  OutboundMessage,
  PlatformAdapter,
} from '../../../src/core/adapter.js';
import type { LoopbackUpdate } from './server.js';

/** The adapter for LoopbackPlatform: long-polls updates and acknowledges them only after the gateway journaled them. */
export class LoopbackAdapter implements PlatformAdapter {
  readonly name = 'loopback';
  readonly capabilities: AdapterCapabilities = {
    edit: true,
    threads: false,
    typing: true,
    reactions: false,
    media: false,
    maxMessageLength: 4096,
    markup: 'none',
  };
  private readonly baseURL: string;

  constructor(params: { baseURL: string }) {
    this.baseURL = params.baseURL;
  }

  async start(params: AdapterStartParams): Promise<void> {
    let offset = 0;
    params.report({ state: 'connected' });
    while (!params.signal.aborted) {
      let updates: LoopbackUpdate[];
      try {
        updates = await this.call<LoopbackUpdate[]>({ method: 'getUpdates', body: { offset, timeout_ms: 500 }, signal: params.signal });
      } catch (error) {
        if (params.signal.aborted) return;
        throw error;
      }
      for (const update of updates) {
        await params.emit({
          platform: this.name,
          messageId: update.message.id,
          chat: { id: update.message.chat_id, kind: 'dm' },
          sender: { id: update.message.sender_id, isBot: false },
          text: update.message.text,
          media: [],
          mentioned: true,
          receivedAt: Date.now(),
        });
        offset = update.update_id + 1;
      }
    }
  }

  async send(message: OutboundMessage): Promise<{ messageId: string }> {
    const result = await this.call<{ message_id: string }>({ method: 'sendMessage', body: { chat_id: message.chat.id, text: message.text } });
    return { messageId: result.message_id };
  }

  async edit(request: EditRequest): Promise<void> {
    await this.call<boolean>({ method: 'editMessageText', body: { chat_id: request.chat.id, message_id: request.messageId, text: request.text } });
  }

  async typing(params: { chat: ChatRef }): Promise<void> {
    await this.call<boolean>({ method: 'sendChatAction', body: { chat_id: params.chat.id } });
  }

  private async call<T>(params: { method: string; body: Record<string, unknown>; signal?: AbortSignal }): Promise<T> {
    const response = await fetch(`${this.baseURL}/${params.method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(params.body),
      ...(params.signal ? { signal: params.signal } : {}),
    });
    const payload = (await response.json()) as { ok: boolean; result?: T; description?: string };
    if (!payload.ok) throw new Error(`${params.method}: ${payload.description ?? response.status}`);
    return payload.result as T;
  }
}
