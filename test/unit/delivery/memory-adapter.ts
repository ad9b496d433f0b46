import type { Clock } from '../../../src/core/clock.js';
import type {
  AdapterCapabilities,
  AdapterStartParams,
  EditRequest,
  OutboundAttachment,
  OutboundMessage,
  PlatformAdapter,
} from '../../../src/core/adapter.js';
import { RateLimitError } from '../../../src/core/errors.js';

/** One call the adapter received, successful or not. */
export interface RecordedCall {
  readonly kind: 'send' | 'edit';
  readonly messageId: string;
  readonly text: string;
  readonly attachments: readonly OutboundAttachment[];
  readonly replyToId: string | undefined;
  /** Clock time the call arrived. */
  readonly at: number;
  /** Clock time the call returned. */
  endedAt: number;
  outcome: 'ok' | 'rate-limited' | 'failed';
}

/** A message as the platform shows it. */
export interface ShownMessage {
  readonly id: string;
  text: string;
  readonly attachments: readonly OutboundAttachment[];
}

type Fault = { readonly kind: 'rate-limit'; readonly retryAfterMs: number } | { readonly kind: 'fail'; readonly message: string };

/**
 * An in-memory platform: keeps messages, records every call with clock timestamps, takes `latencyMs` per call,
 * and fails chosen calls (RateLimitError or a plain Error). Calls made while a rate-limit block is still running
 * are recorded in `earlyCalls` (a real platform would refuse them).
 */
export class MemoryAdapter implements PlatformAdapter {
  readonly name = 'memory';
  readonly capabilities: AdapterCapabilities;
  readonly calls: RecordedCall[] = [];
  readonly messages = new Map<string, ShownMessage>();
  readonly earlyCalls: RecordedCall[] = [];
  private readonly clock: Clock;
  private readonly latencyMs: number;
  private readonly faults: { kind: 'send' | 'edit'; fault: Fault }[] = [];
  private blockedUntil = 0;
  private nextId = 1;

  constructor(params: { clock: Clock; capabilities?: Partial<AdapterCapabilities>; latencyMs?: number }) {
    this.clock = params.clock;
    this.latencyMs = params.latencyMs ?? 0;
    this.capabilities = {
      edit: true, threads: false, typing: false, reactions: false, media: true, maxMessageLength: 4096, markup: 'markdown',
      ...params.capabilities,
    };
  }

  /** Makes the next `count` calls of `kind` fail with a rate limit of `retryAfterMs`. */
  rateLimitNext(params: { kind: 'send' | 'edit'; count: number; retryAfterMs: number }): void {
    for (let i = 0; i < params.count; i++) this.faults.push({ kind: params.kind, fault: { kind: 'rate-limit', retryAfterMs: params.retryAfterMs } });
  }

  /** Makes the next `count` calls of `kind` fail with a plain error. */
  failNext(params: { kind: 'send' | 'edit'; count: number; message?: string }): void {
    for (let i = 0; i < params.count; i++) this.faults.push({ kind: params.kind, fault: { kind: 'fail', message: params.message ?? 'platform error' } });
  }

  /** Puts a message on the "platform" as if sent earlier (for crash adoption). */
  seed(params: { id: string; text: string }): void {
    this.messages.set(params.id, { id: params.id, text: params.text, attachments: [] });
  }

  /** Successful sends, in order. */
  get sends(): RecordedCall[] {
    return this.calls.filter((c) => c.kind === 'send' && c.outcome === 'ok');
  }

  /** Successful edits, in order. */
  get edits(): RecordedCall[] {
    return this.calls.filter((c) => c.kind === 'edit' && c.outcome === 'ok');
  }

  /** Reports connected and idles until the signal aborts. */
  async start(params: AdapterStartParams): Promise<void> {
    params.report({ state: 'connected' });
    if (params.signal.aborted) return;
    await new Promise<void>((resolve) => params.signal.addEventListener('abort', () => resolve(), { once: true }));
  }

  /** Records the call; after the latency, fails if a fault is queued, else stores the message. */
  async send(message: OutboundMessage): Promise<{ messageId: string }> {
    const id = `m${this.nextId}`;
    const call = this.begin({ kind: 'send', messageId: id, text: message.text, attachments: message.attachments ?? [], replyToId: message.replyToId });
    await this.settle({ call });
    this.nextId += 1;
    this.messages.set(id, { id, text: message.text, attachments: message.attachments ?? [] });
    return { messageId: id };
  }

  /** Records the call; after the latency, fails if a fault is queued, else replaces the text. */
  async edit(request: EditRequest): Promise<void> {
    const call = this.begin({ kind: 'edit', messageId: request.messageId, text: request.text, attachments: [], replyToId: undefined });
    await this.settle({ call });
    const message = this.messages.get(request.messageId);
    if (!message) throw new Error(`edit of unknown message ${request.messageId}`);
    message.text = request.text;
  }

  /** Records a call and checks it against the platform's rules. */
  private begin(params: Omit<RecordedCall, 'at' | 'endedAt' | 'outcome'>): RecordedCall {
    const call: RecordedCall = { ...params, at: this.clock.now(), endedAt: this.clock.now(), outcome: 'ok' };
    this.calls.push(call);
    if (call.at < this.blockedUntil) this.earlyCalls.push(call);
    if (call.text.length > this.capabilities.maxMessageLength) {
      throw new Error(`message too long: ${call.text.length} > ${this.capabilities.maxMessageLength}`);
    }
    return call;
  }

  /** Waits the latency, then applies the next fault for this kind of call, if any. */
  private async settle(params: { call: RecordedCall }): Promise<void> {
    const { call } = params;
    if (this.latencyMs > 0) await this.clock.sleep(this.latencyMs);
    call.endedAt = this.clock.now();
    const index = this.faults.findIndex((f) => f.kind === call.kind);
    if (index === -1) return;
    const [entry] = this.faults.splice(index, 1);
    if (entry?.fault.kind === 'rate-limit') {
      call.outcome = 'rate-limited';
      this.blockedUntil = this.clock.now() + entry.fault.retryAfterMs;
      throw new RateLimitError({ retryAfterMs: entry.fault.retryAfterMs, method: call.kind === 'send' ? 'sendMessage' : 'editMessageText' });
    }
    if (entry?.fault.kind === 'fail') {
      call.outcome = 'failed';
      throw new Error(entry.fault.message);
    }
  }
}
