import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.js';
import { ChatPacer } from '../delivery/pacer.js';
import { meteredAdapter } from './metered-adapter.js';
import type { GatewayMetrics } from '../ops/metrics.js';
import type { AdapterEntry } from '../../core/platform.js';
import type { AdapterStatus, AdapterSupervisor } from './supervisor.js';

/** One adapter as the runner uses it: its entry, the pacer for its chats and its supervisor. */
export interface AdapterSlot {
  readonly entry: AdapterEntry;
  readonly pacer: ChatPacer;
  readonly supervisor: AdapterSupervisor;
}

interface LiveSlot extends AdapterSlot {
  readonly controller: AbortController;
  run: Promise<void> | null;
  /** Work using this slot's adapter (turns, command replies), with the session of a turn. */
  readonly users: Map<Promise<unknown>, string | undefined>;
}

/** The result of `use`: whether an adapter of that name was there to run the work. */
export type SlotUse<T> = { readonly ran: true; readonly value: T } | { readonly ran: false };

/** What `replace` changes: adapters to stop for good, and new adapters (replacing any of the same name). */
export interface AdapterChange {
  readonly stop: readonly string[];
  readonly start: readonly AdapterEntry[];
}

/**
 * The runner's adapters by platform name, swappable while the gateway runs. Work that needs an adapter goes
 * through `use`, which waits while that platform is being swapped, so a turn never starts on an adapter that
 * is going away, and a swap waits for the turns already running on the old adapter before stopping it.
 */
export class AdapterSlots {
  private readonly current = new Map<string, LiveSlot>();
  private readonly pacers = new Map<string, { pacer: ChatPacer; intervalMs: number }>();
  private readonly swaps = new Map<string, Promise<void>>();
  private readonly runs = new Set<Promise<void>>();
  private queue: Promise<void> = Promise.resolve();
  private started = false;
  private stopping = false;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly editIntervalMs: () => number;
  private readonly makeSupervisor: (params: { entry: AdapterEntry }) => AdapterSupervisor;
  private readonly metrics: GatewayMetrics | undefined;

  constructor(params: {
    clock: Clock;
    logger: Logger;
    /** The configured edit interval, for entries that do not set their own. */
    editIntervalMs: () => number;
    makeSupervisor: (params: { entry: AdapterEntry }) => AdapterSupervisor;
    /** Counts every send, edit and 429 of the slots' adapters (gateway.http.metrics); absent: nothing is counted. */
    metrics?: GatewayMetrics | undefined;
  }) {
    this.clock = params.clock;
    this.logger = params.logger;
    this.editIntervalMs = params.editIntervalMs;
    this.makeSupervisor = params.makeSupervisor;
    this.metrics = params.metrics;
  }

  /** Adds an adapter before the gateway starts. */
  add(params: { entry: AdapterEntry }): void {
    const name = params.entry.adapter.name;
    if (this.current.has(name)) throw new Error(`two adapters are named ${name}`);
    this.current.set(name, this.slotFor({ entry: params.entry }));
  }

  /** The current adapter of a platform (during a swap: the old one, still receiving). */
  get(params: { name: string }): AdapterSlot | undefined {
    return this.current.get(params.name);
  }

  /** Names of the current adapters. */
  names(): string[] {
    return [...this.current.keys()];
  }

  /** Status of every current adapter. */
  statuses(): AdapterStatus[] {
    return [...this.current.values()].map((slot) => slot.supervisor.status());
  }

  /** Resolves when every current adapter's first start has an outcome (connected, failed or stopped). */
  async firstOutcomes(): Promise<void> {
    await Promise.all([...this.current.values()].map((slot) => slot.supervisor.firstOutcome));
  }

  /** Starts every adapter under its supervisor. */
  startAll(): void {
    this.started = true;
    for (const slot of this.current.values()) this.launch({ slot });
  }

  /**
   * Runs `fn` with the platform's current adapter once no swap of that platform is in progress; the swap
   * after it waits for `fn` to settle. `sessionKey` names the session of a turn (a swap that cannot wait
   * any longer interrupts it).
   */
  async use<T>(params: { name: string; sessionKey?: string; fn: (slot: AdapterSlot) => Promise<T> }): Promise<SlotUse<T>> {
    for (let swap = this.swaps.get(params.name); swap; swap = this.swaps.get(params.name)) await swap;
    const slot = this.current.get(params.name);
    if (!slot) return { ran: false };
    const work = params.fn(slot);
    slot.users.set(work, params.sessionKey);
    try {
      return { ran: true, value: await work };
    } finally {
      slot.users.delete(work);
    }
  }

  /**
   * Swaps adapters (one change at a time): new work for the affected platforms waits; work already running on
   * an old adapter may finish for up to `drainTimeoutMs` (then `interrupt` gets the sessions still running);
   * the old adapter is stopped and the new one started. Names in `stop` without a replacement disappear.
   */
  replace(params: AdapterChange & { drainTimeoutMs: number; interrupt: (params: { sessionKeys: string[] }) => void }): Promise<void> {
    const names = [...new Set([...params.stop, ...params.start.map((entry) => entry.adapter.name)])];
    const next = this.queue.then(() => this.swap({ ...params, names }));
    const done = next.catch(() => undefined);
    this.queue = done;
    for (const name of names) this.swaps.set(name, done);
    void done.then(() => {
      for (const name of names) if (this.swaps.get(name) === done) this.swaps.delete(name);
    });
    return next;
  }

  /** Stops every adapter (swaps in progress finish first, without starting anything new). */
  async stopAll(): Promise<void> {
    this.stopping = true;
    for (const slot of this.current.values()) slot.controller.abort();
    await this.queue;
    for (const slot of this.current.values()) slot.controller.abort();
    await Promise.allSettled([...this.runs]);
  }

  private async swap(params: AdapterChange & { names: string[]; drainTimeoutMs: number; interrupt: (params: { sessionKeys: string[] }) => void }): Promise<void> {
    const old = params.names.flatMap((name) => {
      const slot = this.current.get(name);
      return slot ? [slot] : [];
    });
    await this.drainUsers({ slots: old, timeoutMs: params.drainTimeoutMs, interrupt: params.interrupt });
    for (const slot of old) slot.controller.abort();
    await Promise.allSettled(old.map((slot) => slot.run ?? Promise.resolve()));
    for (const slot of old) this.current.delete(slot.entry.adapter.name);
    for (const entry of params.start) {
      const slot = this.slotFor({ entry });
      this.current.set(entry.adapter.name, slot);
      if (this.started && !this.stopping) this.launch({ slot });
    }
  }

  /** Waits for the work on `slots`; past the timeout, interrupts the turns still running and waits a little more. */
  private async drainUsers(params: { slots: LiveSlot[]; timeoutMs: number; interrupt: (params: { sessionKeys: string[] }) => void }): Promise<void> {
    const pending = (): Promise<unknown>[] => params.slots.flatMap((slot) => [...slot.users.keys()]);
    if (await this.settleWithin({ work: pending(), timeoutMs: params.timeoutMs })) return;
    const sessionKeys = params.slots.flatMap((slot) => [...slot.users.values()].filter((key): key is string => key !== undefined));
    this.logger.warn({ sessions: sessionKeys.length, timeoutMs: params.timeoutMs }, 'turns still running on an adapter being replaced: interrupting them; they are answered again on the new adapter');
    params.interrupt({ sessionKeys });
    await this.settleWithin({ work: pending(), timeoutMs: 5000 });
  }

  /** True when all of `work` settled within the timeout. */
  private async settleWithin(params: { work: Promise<unknown>[]; timeoutMs: number }): Promise<boolean> {
    if (params.work.length === 0) return true;
    const controller = new AbortController();
    const all = Promise.allSettled(params.work).then(() => true);
    const timeout = this.clock.sleep(params.timeoutMs, controller.signal).then(() => false, () => false);
    const result = await Promise.race([all, timeout]);
    controller.abort();
    return result;
  }

  private launch(params: { slot: LiveSlot }): void {
    const { slot } = params;
    const run = slot.supervisor.run({ signal: slot.controller.signal });
    slot.run = run;
    this.runs.add(run);
    void run.finally(() => this.runs.delete(run));
  }

  /**
   * A slot for a new entry; the platform's pacer (and its rate-limit state) is kept when the interval is the same. The
   * slot's adapter is the entry's, metered: every platform call of the gateway (turns, commands, prompts, system
   * turns) goes through a slot, so each is counted once; the supervisor starts the adapter itself.
   */
  private slotFor(params: { entry: AdapterEntry }): LiveSlot {
    const { entry } = params;
    const name = entry.adapter.name;
    const intervalMs = entry.editIntervalMs ?? this.editIntervalMs();
    let kept = this.pacers.get(name);
    if (kept?.intervalMs !== intervalMs) {
      kept = {
        intervalMs,
        pacer: new ChatPacer({
          clock: this.clock,
          intervalMs,
          maxChats: 10_000,
          logger: this.logger,
          intervalFor: ({ chatKey }) => this.current.get(name)?.entry.adapter.minInterval?.({ chatId: chatKey }),
        }),
      };
      this.pacers.set(name, kept);
    }
    const metered = { ...entry, adapter: meteredAdapter({ adapter: entry.adapter, metrics: this.metrics }) };
    return { entry: metered, pacer: kept.pacer, supervisor: this.makeSupervisor({ entry }), controller: new AbortController(), run: null, users: new Map() };
  }
}
