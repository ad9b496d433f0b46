import type {
  AdapterCapabilities,
  AdapterStartParams,
  ChatRef,
  ChoiceAnswer,
  OutboundChoice,
  Sender,
  EditRequest,
  MessageEvent,
  OutboundMessage,
  PlatformAdapter,
} from '../../src/core/adapter.js';
import { RateLimitError } from '../../src/core/errors.js';
import type { Clock } from '../../src/core/clock.js';
import { whenAborted } from '../../src/util/when-aborted.js';

/** One call the gateway made to the test platform. */
export interface PlatformCall {
  readonly kind: 'send' | 'edit' | 'typing';
  readonly at: number;
  readonly chatId: string;
  readonly messageId: string;
  readonly text: string;
  readonly attachments: readonly string[];
  /** The buttons the send or edit left on the message. */
  readonly choices?: readonly OutboundChoice[];
}

/** A platform message as the "user" would see it now. */
export interface ShownMessage {
  readonly id: string;
  readonly chatId: string;
  text: string;
  readonly attachments: readonly string[];
  edits: number;
  /** The buttons the message shows now (an edit without choices removes them). */
  choices: readonly OutboundChoice[];
}

/** An in-process platform: the test injects messages and reads what the gateway sent. */
export class TestAdapter implements PlatformAdapter {
  readonly name: string;
  readonly capabilities: AdapterCapabilities;
  readonly calls: PlatformCall[] = [];
  readonly messages = new Map<string, ShownMessage>();
  private emitFn: ((event: MessageEvent) => Promise<void>) | null = null;
  private chooseFn: AdapterStartParams['choose'] | null = null;
  /** Every press and the gateway's answer to it, oldest first. */
  readonly presses: { choiceId: string; senderId: string; answer: ChoiceAnswer }[] = [];
  private nextId = 1;
  private counter = 0;
  private readonly clock: Clock;
  /** Calls (by 1-based index among sends+edits) that answer 429 with this retry-after. */
  readonly rateLimitOn = new Map<number, number>();
  private opIndex = 0;
  /** Calls refused with a rate limit: when, and how long the platform asked to wait. */
  readonly refused: { at: number; retryAfterMs: number; method: string }[] = [];
  private readonly waiters: (() => void)[] = [];

  constructor(params: { clock: Clock; name?: string; capabilities?: Partial<AdapterCapabilities> }) {
    this.clock = params.clock;
    this.name = params.name ?? 'test';
    this.capabilities = {
      edit: true,
      threads: false,
      typing: true,
      reactions: false,
      media: true,
      maxMessageLength: 4096,
      markup: 'none',
      ...params.capabilities,
    };
  }

  async start(params: AdapterStartParams): Promise<void> {
    this.emitFn = params.emit;
    this.chooseFn = params.choose;
    params.report({ state: 'connected' });
    await whenAborted({ signal: params.signal });
    this.emitFn = null;
    this.chooseFn = null;
  }

  /**
   * Presses a button of a message the gateway sent (platforms with `buttons`), as `sender` (default the DM's user-1);
   * resolves with the gateway's answer. A `retire` answer removes the message's buttons, as a platform adapter would.
   */
  async press(params: { messageId: string; choiceId: string; sender?: Partial<Sender> & { id: string } }): Promise<ChoiceAnswer> {
    await this.ready();
    const choose = this.chooseFn;
    if (!choose) throw new Error('adapter not started');
    const shown = this.messages.get(params.messageId);
    if (!shown) throw new Error(`press on unknown message ${params.messageId}`);
    const sender: Sender = { name: 'Tester', isBot: false, ...(params.sender ?? { id: 'user-1' }) };
    const answer = await choose({ platform: this.name, chat: { id: shown.chatId, kind: shown.chatId.startsWith('group') ? 'group' : 'dm' }, sender, messageId: params.messageId, choiceId: params.choiceId });
    this.presses.push({ choiceId: params.choiceId, senderId: sender.id, answer });
    if (answer.retire === true) shown.choices = [];
    return answer;
  }

  /** Waits until the adapter has been started by its supervisor. */
  async ready(): Promise<void> {
    while (!this.emitFn) await new Promise((r) => setTimeout(r, 1));
  }

  /** Sends a user message into the gateway, like a platform would. */
  async inject(params: { text: string; chatId?: string; senderId?: string; kind?: ChatRef['kind']; messageId?: string; media?: MessageEvent['media'] }): Promise<MessageEvent> {
    await this.ready();
    this.counter += 1;
    const event: MessageEvent = {
      platform: this.name,
      messageId: params.messageId ?? `in-${this.counter}`,
      chat: { id: params.chatId ?? 'chat-1', kind: params.kind ?? 'dm' },
      sender: { id: params.senderId ?? 'user-1', name: 'Tester', isBot: false },
      text: params.text,
      media: params.media ?? [],
      mentioned: true,
      receivedAt: this.clock.now(),
    };
    const emit = this.emitFn;
    if (!emit) throw new Error('adapter not started');
    await emit(event);
    return event;
  }

  async send(message: OutboundMessage): Promise<{ messageId: string }> {
    this.maybeRateLimit('sendMessage');
    const id = `out-${this.nextId++}`;
    // The file the reply named (the gateway uploads a checked copy of it).
    const attachments = (message.attachments ?? []).map((a) => a.sourcePath ?? a.path);
    const choices = this.capabilities.buttons === true ? [...(message.choices ?? [])] : [];
    this.messages.set(id, { id, chatId: message.chat.id, text: message.text, attachments, edits: 0, choices });
    this.record({ kind: 'send', chatId: message.chat.id, messageId: id, text: message.text, attachments, choices });
    return { messageId: id };
  }

  async edit(request: EditRequest): Promise<void> {
    this.maybeRateLimit('editMessageText');
    const shown = this.messages.get(request.messageId);
    if (!shown) throw new Error(`edit of unknown message ${request.messageId}`);
    shown.text = request.text;
    shown.edits += 1;
    shown.choices = this.capabilities.buttons === true ? [...(request.choices ?? [])] : [];
    this.record({ kind: 'edit', chatId: request.chat.id, messageId: request.messageId, text: request.text, attachments: [], choices: shown.choices });
  }

  async typing(params: { chat: ChatRef }): Promise<void> {
    this.calls.push({ kind: 'typing', at: this.clock.now(), chatId: params.chat.id, messageId: '', text: '', attachments: [] });
  }

  /** Messages shown in a chat, oldest first. */
  shown(params: { chatId?: string } = {}): ShownMessage[] {
    return [...this.messages.values()].filter((m) => m.chatId === (params.chatId ?? 'chat-1'));
  }

  /** Resolves when `predicate` holds after some platform call. */
  async waitFor(params: { predicate: () => boolean; timeoutMs?: number; what?: string }): Promise<void> {
    const deadline = Date.now() + (params.timeoutMs ?? 5000);
    while (!params.predicate()) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${params.what ?? 'condition'}`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 20);
      });
    }
  }

  /** While set, every send and edit fails with this error (the platform is down). */
  down: Error | null = null;

  private maybeRateLimit(method: string): void {
    if (this.down) throw this.down;
    this.opIndex += 1;
    const retryAfter = this.rateLimitOn.get(this.opIndex);
    if (retryAfter !== undefined) {
      this.refused.push({ at: this.clock.now(), retryAfterMs: retryAfter, method });
      throw new RateLimitError({ retryAfterMs: retryAfter, method });
    }
  }

  private record(call: Omit<PlatformCall, 'at'>): void {
    this.calls.push({ ...call, at: this.clock.now() });
    for (const w of this.waiters.splice(0)) w();
  }
}
