import type { Logger } from 'pino';
import type { AIAgent } from '../agent/agent.js';
import type { GatewayHttp, HealthReport } from '../http/server.js';
import type { Store, InboxRow } from '../store/types.js';
import type { ToolContext } from '../tools/tool.js';
import type { Clock } from '../util/clock.js';
import { authorize, type AllowList } from './authorize.js';
import { parseCommand, unknownCommandReply } from './commands.js';
import { messageEventSchema, type MessageEvent, type PlatformAdapter, type Sender } from './contracts.js';
import { runControlCommand } from './control.js';
import { SessionMailbox, type BusyPolicy } from './mailbox.js';
import type { TurnReactions } from './turn-reactions.js';
import { Pairing, pairingReply } from './pairing.js';
import type { MediaPolicy } from './media-policy.js';
import { runMaintenance } from './maintenance.js';
import { sessionKeyFor } from './session-key.js';
import { AdapterSlots, type AdapterChange, type AdapterSlot } from './adapter-slots.js';
import { GatewayReplies } from './gateway-replies.js';
import { superviseEntry } from './supervise-entry.js';
import type { AdapterStatus } from './supervisor.js';
import { runTurn } from './turn.js';

/** One adapter and how the gateway treats it. */
export interface AdapterEntry {
  readonly adapter: PlatformAdapter;
  /** Who may talk through it. */
  readonly allow: AllowList;
  /** Overrides the stream edit interval for this adapter (e.g. a terminal). */
  readonly editIntervalMs?: number;
  /** Overrides the busy policy for this adapter's sessions (e.g. piped terminal input queues). */
  readonly busyPolicy?: BusyPolicy;
  /** How long to wait for more parts of a message the adapter marked `continues` (albums, split texts). */
  readonly mergeWindowMs?: number;
  /** Reactions on the message being answered (start/done/error), when the platform has them and they are on. */
  readonly reactions?: TurnReactions;
  /** What an unknown sender in a DM gets: a pairing code the owner can approve, or nothing (default). */
  readonly unauthorized?: 'pair' | 'ignore';
}

/** Behaviour knobs, already resolved from config. */
export interface RunnerOptions {
  readonly profileName: string;
  readonly busyPolicy: BusyPolicy;
  readonly drainTimeoutMs: number;
  readonly editIntervalMs: number;
  readonly cursor: string;
  readonly typingIntervalMs: number;
  readonly modelLabel: string;
  /** Most characters of earlier conversation sent with each model call. */
  readonly historyMaxChars: number;
  /** Which MEDIA files a reply may attach. */
  readonly mediaPolicy: MediaPolicy;
  /** Redacts secrets from everything sent to a platform. */
  readonly scrub: (text: string) => string;
  readonly toolContext: Omit<ToolContext, 'signal'>;
  /** The profile's media cache, pruned by the maintenance loop. */
  readonly cacheDir?: string;
  /** Restart backoff for adapters (tests shorten it). */
  readonly supervisorBackoff?: { baseMs?: number; maxMs?: number };
}

/** A message whose turn was cut short (crash, restart) this many times is answered with an apology instead. */
const maxTurnAttempts = 3;

/** The outcome of handing a message to the gateway. */
export type AcceptResult = 'queued' | 'duplicate' | 'unauthorized' | 'command' | 'draining';

/**
 * One profile's gateway: supervises adapters, journals and routes messages into per-session mailboxes,
 * answers control commands at once, and drains cleanly.
 */
export class GatewayRunner {
  private readonly slots: AdapterSlots;
  private readonly mailboxes = new Map<string, SessionMailbox>();
  /** Command replies and pairing codes; drained before the store closes. */
  private readonly replies: GatewayReplies;
  private readonly maintenanceController = new AbortController();
  /** The maintenance loop: awaited on stop, before the store closes. */
  private maintenanceRun: Promise<void> = Promise.resolve();
  private phase: 'new' | 'running' | 'draining' | 'stopped' = 'new';
  private startedAt = 0;
  /** Where the HTTP server listens, once started. */
  httpAddress: { host: string; port: number } | null = null;
  private readonly store: Store;
  /** Replaced by `reconfigure`; a turn uses the agent current when it starts. */
  private agent: AIAgent;
  private readonly clock: Clock;
  private readonly logger: Logger;
  /** Replaced by `reconfigure`; read when each turn starts. */
  private options: RunnerOptions;
  private readonly http: GatewayHttp | undefined;
  private readonly pairing: Pairing;

  constructor(params: {
    store: Store;
    agent: AIAgent;
    adapters: readonly AdapterEntry[];
    clock: Clock;
    logger: Logger;
    options: RunnerOptions;
    http?: GatewayHttp;
  }) {
    this.store = params.store;
    this.agent = params.agent;
    this.clock = params.clock;
    this.logger = params.logger;
    this.options = params.options;
    this.http = params.http;
    this.pairing = new Pairing({ store: this.store, clock: this.clock });
    this.slots = new AdapterSlots({
      clock: this.clock,
      logger: this.logger,
      editIntervalMs: () => this.options.editIntervalMs,
      makeSupervisor: ({ entry }) =>
        superviseEntry({
          entry,
          store: this.store,
          clock: this.clock,
          logger: this.logger,
          backoff: this.options.supervisorBackoff,
          accept: (p) => this.accept(p),
          mayTalk: ({ platform, sender }) => this.mayTalk({ platform, sender, allow: entry.allow }),
        }),
    });
    for (const entry of params.adapters) this.slots.add({ entry });
    this.replies = new GatewayReplies({ slots: this.slots, logger: this.logger, scrub: () => this.options.scrub });
  }

  /** Whether a sender passes the allowlist or was approved by pairing. */
  private mayTalk(params: { platform: string; sender: Sender; allow: AllowList }): boolean {
    if (authorize({ sender: params.sender, allow: params.allow }).allowed) return true;
    return !params.sender.isBot && this.pairing.isApproved({ platform: params.platform, senderId: params.sender.id });
  }

  /** Starts adapters under their supervisors and replays messages a previous run did not finish. */
  async start(): Promise<void> {
    if (this.phase !== 'new') throw new Error('GatewayRunner.start called twice');
    this.startedAt = this.clock.now();
    if (this.http) {
      const address = await this.http.listen();
      this.httpAddress = address;
      this.logger.info(address, 'http server listening');
    }
    this.phase = 'running';
    this.slots.startAll();
    this.maintenanceRun = runMaintenance({
      store: this.store,
      clock: this.clock,
      logger: this.logger,
      signal: this.maintenanceController.signal,
      ...(this.options.cacheDir !== undefined ? { cacheDir: this.options.cacheDir } : {}),
    });
    this.replay();
    this.logger.info({ adapters: this.slots.names() }, 'gateway started');
  }

  /**
   * Swaps adapters while running (config reload): turns already running on a replaced adapter finish on it
   * (up to the drain timeout, then they are interrupted and answered again on the new one); turns that start
   * meanwhile wait for the new adapter. Adapters not named keep running untouched.
   */
  async replaceAdapters(params: AdapterChange): Promise<void> {
    if (this.phase !== 'running') throw new Error('adapters can only be replaced while the gateway runs');
    const interrupted: InboxRow[] = [];
    await this.slots.replace({
      ...params,
      drainTimeoutMs: this.options.drainTimeoutMs,
      interrupt: ({ sessionKeys }) => {
        for (const key of sessionKeys) {
          const mailbox = this.mailboxes.get(key);
          const row = mailbox?.runningRow;
          if (mailbox && row && mailbox.interrupt({ kind: 'shutdown' })) interrupted.push(row);
        }
      },
    });
    for (const row of interrupted) {
      const slot = this.slots.get({ name: row.event.platform });
      if (slot && this.phase === 'running') this.mailboxFor({ key: row.sessionKey, policy: slot.entry.busyPolicy, mergeWindowMs: slot.entry.mergeWindowMs }).enqueue({ row, replay: true });
    }
  }

  /** Settings from a reloaded config (a new agent for model/prompt changes, new options): used by turns that start from now on. */
  reconfigure(params: { agent: AIAgent; options: RunnerOptions }): void {
    this.agent = params.agent;
    this.options = params.options;
  }

  /** Status of every adapter. */
  adapterStatuses(): AdapterStatus[] {
    return this.slots.statuses();
  }

  /** The /healthz report. */
  health(): HealthReport {
    const adapters = this.adapterStatuses();
    const status = this.phase === 'draining' || this.phase === 'stopped' ? 'draining' : this.phase === 'new' ? 'starting' : adapters.every((a) => a.state === 'connected') ? 'ok' : 'degraded';
    return {
      status,
      profile: this.options.profileName,
      uptimeSeconds: this.startedAt === 0 ? 0 : Math.round((this.clock.now() - this.startedAt) / 1000),
      adapters: adapters.map((a) => ({ ...a, since: new Date(a.since).toISOString() })),
    };
  }

  /**
   * Takes one inbound message from an adapter. Resolves once it is durably journaled (or deliberately
   * dropped), so the adapter may then acknowledge it to its platform.
   */
  async accept(params: { event: MessageEvent; via: string }): Promise<AcceptResult> {
    const parsed = messageEventSchema.safeParse(params.event);
    if (!parsed.success) {
      this.logger.error({ via: params.via, issues: parsed.error.issues.slice(0, 5) }, 'adapter produced an invalid message event');
      throw new Error(`invalid message event from ${params.via}: ${parsed.error.issues[0]?.message ?? 'unknown problem'}`);
    }
    const event = parsed.data;
    const slot = this.slots.get({ name: event.platform });
    if (!slot) throw new Error(`no adapter named ${event.platform} is running`);
    if (this.phase !== 'running') throw new Error('the gateway is shutting down; deliver this message again later');

    const decision = authorize({ sender: event.sender, allow: slot.entry.allow });
    const approved = !decision.allowed && decision.reason === 'not-allowed' && this.pairing.isApproved({ platform: event.platform, senderId: event.sender.id });
    if (!decision.allowed && !approved) {
      this.logger.info({ platform: event.platform, senderId: event.sender.id, reason: decision.reason }, 'message ignored: sender not authorized');
      if (decision.reason === 'not-allowed' && slot.entry.unauthorized === 'pair' && event.chat.kind === 'dm') this.offerPairing({ event });
      return 'unauthorized';
    }
    const sessionKey = sessionKeyFor({ profile: this.options.profileName, event });
    const { inserted, row } = this.store.recordInbound({ event, sessionKey });
    if (!inserted) {
      this.logger.info({ platform: event.platform, messageId: event.messageId }, 'redelivered message ignored');
      return 'duplicate';
    }
    const command = parseCommand({ text: event.text });
    if (command.kind !== 'none') {
      await this.control({ row, command });
      return 'command';
    }
    this.mailboxFor({ key: sessionKey, policy: slot.entry.busyPolicy, mergeWindowMs: slot.entry.mergeWindowMs }).enqueue({ row });
    return 'queued';
  }

  /** Resolves when no session has a running or waiting turn and every command reply is out. */
  async waitIdle(): Promise<void> {
    for (let busy = this.busyMailboxes(); busy.length > 0 || this.replies.pending > 0; busy = this.busyMailboxes()) {
      await Promise.all([...busy.map((m) => m.idle()), this.replies.drain()]);
    }
  }

  /** Stops intake, lets running turns finish for up to the drain timeout, then interrupts them; closes the store. */
  async stop(): Promise<void> {
    if (this.phase === 'stopped' || this.phase === 'draining') return;
    this.phase = 'draining';
    this.logger.info({ busySessions: this.busyMailboxes().length }, 'gateway draining');
    this.maintenanceController.abort();
    const adaptersStopped = this.slots.stopAll();
    for (const mailbox of this.mailboxes.values()) mailbox.clearQueue();
    const drained = await this.waitForTurns({ timeoutMs: this.options.drainTimeoutMs });
    if (!drained) {
      this.logger.warn({ timeoutMs: this.options.drainTimeoutMs }, 'drain timeout: interrupting running turns; they resume on next start');
      for (const mailbox of this.mailboxes.values()) mailbox.interrupt({ kind: 'shutdown' });
      await this.waitForTurns({ timeoutMs: 5000 });
    }
    await Promise.allSettled([adaptersStopped, this.maintenanceRun, this.replies.drain()]);
    if (this.http) await this.http.close();
    this.store.close();
    this.phase = 'stopped';
    this.logger.info('gateway stopped');
  }

  private async control(params: { row: InboxRow; command: ReturnType<typeof parseCommand> }): Promise<void> {
    const { row, command } = params;
    const event = row.event;
    const text = command.kind === 'command'
      ? runControlCommand({
          name: command.name,
          event,
          ctx: {
            store: this.store,
            sessionKey: row.sessionKey,
            mailbox: this.mailboxes.get(row.sessionKey),
            modelLabel: this.options.modelLabel,
            adapters: () => this.adapterStatuses(),
            startedAt: this.startedAt,
            now: this.clock.now(),
          },
        })
      : command.kind === 'unknown' ? unknownCommandReply({ name: command.name }) : '';
    this.logger.info({ command: command.kind === 'none' ? null : command.name, inboxId: row.id }, 'control command');
    this.store.setInboxState({ inboxId: row.id, state: 'done' });
    this.replies.send({ event, text, what: 'command reply' });
  }

  /** An unknown sender in a DM: a pairing code the owner can approve (once per code, so no reply storms). */
  private offerPairing(params: { event: MessageEvent }): void {
    const { event } = params;
    const result = this.pairing.request({ platform: event.platform, senderId: event.sender.id, senderName: event.sender.name ?? null, chatId: event.chat.id });
    if (result.kind === 'full') {
      this.logger.warn({ platform: event.platform, senderId: event.sender.id }, 'pairing refused: too many pending requests; approve or wait for them to expire');
      return;
    }
    if (result.kind === 'pending') return;
    this.logger.info({ platform: event.platform, senderId: event.sender.id, code: result.code }, 'pairing code sent to an unknown sender');
    const text = pairingReply({ code: result.code, platform: event.platform, profileName: this.options.profileName, expiresAt: result.expiresAt, now: this.clock.now() });
    this.replies.send({ event, text, what: 'pairing code' });
  }

  private mailboxFor(params: { key: string; policy: BusyPolicy | undefined; mergeWindowMs: number | undefined }): SessionMailbox {
    const existing = this.mailboxes.get(params.key);
    if (existing) return existing;
    const mailbox = new SessionMailbox({
      key: params.key,
      policy: params.policy ?? this.options.busyPolicy,
      logger: this.logger,
      runTurn: ({ row, merged, signal }) => this.turn({ row, merged, signal }),
      clock: this.clock,
      mergeWindowMs: params.mergeWindowMs ?? 0,
      onIdle: (m) => {
        if (!m.busy && this.mailboxes.get(m.key) === m) this.mailboxes.delete(m.key);
      },
    });
    this.mailboxes.set(params.key, mailbox);
    return mailbox;
  }

  private async turn(params: { row: InboxRow; merged: readonly InboxRow[]; signal: AbortSignal }): Promise<void> {
    const used = await this.slots.use({
      name: params.row.event.platform,
      sessionKey: params.row.sessionKey,
      fn: (slot) => this.runTurnOn({ ...params, slot }),
    });
    if (!used.ran) this.logger.warn({ inboxId: params.row.id, platform: params.row.event.platform }, 'no adapter for a pending message; it stays journaled');
  }

  private async runTurnOn(params: { row: InboxRow; merged: readonly InboxRow[]; signal: AbortSignal; slot: AdapterSlot }): Promise<void> {
    const { slot } = params;
    await runTurn({
      row: params.row,
      merged: params.merged,
      signal: params.signal,
      deps: {
        store: this.store,
        agent: this.agent,
        clock: this.clock,
        logger: this.logger,
        adapter: slot.entry.adapter,
        pacer: slot.pacer,
        cursor: this.options.cursor,
        typingIntervalMs: this.options.typingIntervalMs,
        toolContext: this.options.toolContext,
        maxAttempts: maxTurnAttempts,
        historyMaxChars: this.options.historyMaxChars,
        ...(slot.entry.reactions ? { reactions: slot.entry.reactions } : {}),
        mediaPolicy: this.options.mediaPolicy,
        scrub: this.options.scrub,
      },
    });
  }

  private replay(): void {
    const pending = this.store.pendingInbound();
    if (pending.length === 0) return;
    let replayed = 0;
    for (const row of pending) {
      const slot = this.slots.get({ name: row.event.platform });
      if (!slot) continue;
      this.mailboxFor({ key: row.sessionKey, policy: slot.entry.busyPolicy, mergeWindowMs: slot.entry.mergeWindowMs }).enqueue({ row, replay: true });
      replayed += 1;
    }
    this.logger.info({ pending: pending.length, replayed }, 'replaying messages a previous run did not finish');
  }

  private busyMailboxes(): SessionMailbox[] {
    return [...this.mailboxes.values()].filter((m) => m.busy);
  }

  /** Resolves true when all turns ended within the timeout. */
  private async waitForTurns(params: { timeoutMs: number }): Promise<boolean> {
    const all = Promise.all([...this.mailboxes.values()].map((m) => m.idle())).then(() => true);
    const controller = new AbortController();
    const timeout = this.clock.sleep(params.timeoutMs, controller.signal).then(() => false, () => false);
    const result = await Promise.race([all, timeout]);
    controller.abort();
    return result;
  }
}
