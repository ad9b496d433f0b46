import type { CompressionDeps } from '../sessions/compress.js';
import type { Logger } from 'pino';
import type { AIAgent } from '../../agent/agent.js';
import { RejectionLog } from '../http/rejection-log.js';
import type { GatewayHttp, HealthReport } from '../http/server.js';
import { storeDiskErrorOf } from '../../store/errors.js';
import type { Store, InboxRow } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import { diskReason } from '../../util/disk-error.js';
import { answerControl } from './control-lane.js';
import type { MessageCommand } from '../commands/skill-command.js';
import type { MessageEvent } from '../../core/adapter.js';
import { acceptEvent, type AcceptDeps, type AcceptResult, type RunnerPhase } from '../intake/accept.js';
import { GatewayLoops } from '../ops/loops.js';
import { DiskHealth, type DiskChange } from '../ops/disk-health.js';
import { gatewayHealth } from './health.js';
import { AdapterSlots, type AdapterChange, type AdapterSlot } from './slots.js';
import { GatewayReplies } from '../delivery/replies.js';
import { superviseEntry } from './supervise-entry.js';
import { ChoiceRouter } from '../owner/choices.js';
import type { AdapterStatus } from './supervisor.js';
import { SenderGate } from '../intake/sender-gate.js';
import { SessionMailboxes } from '../intake/mailboxes.js';
import { signOfLifeFor, type TypingHandle } from '../turns/sign-of-life.js';
import { countAccepted, meteredTurn } from '../ops/metered-turn.js';
import { meteredComplete } from '../ops/model-meter.js';
import { StalledTurns } from '../turns/stalled.js';
import { runTurn, type TurnDeps } from '../turns/turn.js';
import { turnDepsFor } from './turn-deps.js';
import { journalEvent, type JournalResult } from '../intake/journal.js';
import { injectTurn, turnMessageIds } from '../inject/inject.js';
import { type InjectParams, type InjectResult } from '../../jobs/ports.js';
import { TurnWatch } from '../inject/watch.js';
import { sendText } from '../inject/send.js';
import { Scheduler } from '../../jobs/scheduler.js';
import { BackgroundWork } from '../review/background-work.js';
import { startReviewIfDue } from '../review/start.js';
import type { RunnerOptions } from './types.js';
import type { AdapterEntry } from '../../core/platform.js';
import { sessionContextUsage, type ContextUsage } from '../sessions/context-status.js';
import { replayPending } from './replay.js';
import { sessionContextLength } from '../sessions/context-length.js';
import { OwnerQuestions } from '../owner/questions.js';
import type { SteeringSource } from '../intake/mailbox.js';
import { RunningDelegations } from '../delegate/running.js';

export type { RunnerOptions } from './types.js';

/** Most pieces of system-started background work (reviews) running at once across sessions. */
const maxBackgroundWork = 2;

/** A message whose turn was cut short (crash, restart) this many times is answered with an apology instead. */
const maxTurnAttempts = 3;

/** Longest the background loops wait at start for the adapters' first connect. */
const LOOPS_WAIT_MS = 2000;

export type { AcceptResult } from '../intake/accept.js';

/**
 * One profile's gateway: supervises adapters, journals and routes messages into per-session mailboxes,
 * answers control commands at once, and drains cleanly.
 */
export class GatewayRunner {
  private readonly slots: AdapterSlots;
  private readonly mailboxes: SessionMailboxes;
  /** Work the gateway starts itself after a turn (background reviews): one per session, aborted by its next message. */
  private readonly background: BackgroundWork;
  /** Command replies and pairing codes; drained before the store closes. */
  private readonly replies: GatewayReplies;
  /** Maintenance, disk probes, the model watch, context length, history scrubs: awaited on stop, before the store closes. */
  private readonly loops: GatewayLoops;
  /** What the log file, store and state file say about the disk; probed while any of them fails. */
  private readonly disk: DiskHealth;
  private readonly stopDiskWatch: () => void;
  /** Turns the store cut short (disk full): finished once it writes again. */
  private readonly stalled: StalledTurns;
  /** Waiters for system-started turns (runner.inject), settled when each ends. */
  private readonly injected = new TurnWatch();
  /** The turns running delegate_task children: a stop interrupts them at once instead of draining them. */
  private readonly delegations = new RunningDelegations();
  /** Where button presses go: approvals and clarify questions register their prefix here. */
  readonly choices: ChoiceRouter;
  /** Approval and clarify questions waiting for an owner (in memory), and which messages answer them. */
  private readonly questions: OwnerQuestions;
  /** The profile's scheduled jobs (when `options.jobs` is set); poke it after a job was created or changed. */
  readonly scheduler: Scheduler;
  private schedulerRun: Promise<void> = Promise.resolve();
  private phase: RunnerPhase = 'new';
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
  private readonly gate: SenderGate;
  /** What `accept` hands intake/accept.ts (built once in the constructor). */
  private readonly intake: AcceptDeps;
  /** Lines about messages the journal refused, rate-limited per platform (redeliveries and holds retry often). */
  private readonly refusals: RejectionLog;

  constructor(params: {
    store: Store;
    agent: AIAgent;
    adapters: readonly AdapterEntry[];
    clock: Clock;
    logger: Logger;
    options: RunnerOptions;
    http?: GatewayHttp;
    /** Shared with the log file and state file writers; one is made when not given. */
    disk?: DiskHealth;
  }) {
    this.store = params.store;
    this.agent = params.agent;
    this.clock = params.clock;
    this.logger = params.logger;
    const onLate = ({ pieces }: { pieces: number }): void => this.logger.warn({ pieces }, 'background work did not stop in time; the gateway stops without it');
    this.background = new BackgroundWork({ maxConcurrent: maxBackgroundWork, clock: this.clock, onLate });
    this.refusals = new RejectionLog({ logger: this.logger, clock: this.clock });
    this.choices = new ChoiceRouter({ logger: this.logger });
    this.questions = new OwnerQuestions({ store: this.store, clock: this.clock, logger: this.logger, choices: this.choices, entryOf: (platform) => this.slots.get({ name: platform })?.entry });
    this.options = params.options;
    this.http = params.http;
    this.disk = params.disk ?? new DiskHealth({ clock: this.clock });
    this.stopDiskWatch = this.disk.onChange((change) => this.onDiskChange(change));
    this.loops = new GatewayLoops({ store: this.store, clock: this.clock, logger: this.logger, disk: this.disk, options: () => this.options });
    this.stalled = new StalledTurns({ store: this.store, logger: this.logger });
    this.slots = new AdapterSlots({
      clock: this.clock,
      logger: this.logger,
      editIntervalMs: () => this.options.editIntervalMs,
      metrics: this.http?.metrics,
      makeSupervisor: ({ entry }) =>
        superviseEntry({
          entry,
          store: this.store,
          clock: this.clock,
          logger: this.logger,
          backoff: this.options.supervisorBackoff,
          accept: (p) => this.accept(p).then((result) => countAccepted({ metrics: this.http?.metrics, platform: p.event.platform, result })),
          mayTalk: ({ platform, sender }) => this.gate.mayTalk({ platform, sender, allow: entry.allow }),
          choose: (event) => this.choices.choose(event),
        }),
    });
    for (const entry of params.adapters) this.slots.add({ entry });
    this.replies = new GatewayReplies({ slots: this.slots, logger: this.logger, scrub: () => this.options.scrub });
    this.mailboxes = new SessionMailboxes({
      clock: this.clock, logger: this.logger, busyPolicy: () => this.options.busyPolicy,
      signOfLife: (row) => signOfLifeFor({ row, slots: this.slots, intervalMs: this.options.typingIntervalMs, clock: this.clock, logger: this.logger }),
      runTurn: (p) => this.turn(p),
    });
    this.http?.metrics?.bind({ queueDepth: () => this.mailboxes.all().reduce((n, m) => n + m.queued, 0), adapters: () => this.adapterStatuses() });
    this.gate = new SenderGate({
      store: this.store,
      clock: this.clock,
      logger: this.logger,
      replies: this.replies,
      profileName: () => this.options.profileName,
      allowOf: (platform) => this.slots.get({ name: platform })?.entry.allow,
      signal: this.loops.signal,
    });
    this.scheduler = new Scheduler({
      store: this.store,
      clock: this.clock,
      logger: this.logger.child({ component: 'scheduler' }),
      inject: (p) => this.inject(p),
      sendText: (p) => sendText({ ...p, slots: this.slots, scrub: this.options.scrub, mediaPolicy: this.options.mediaPolicy, stageMedia: this.options.stageMedia, store: this.store, clock: this.clock, logger: this.logger.child({ component: 'scheduler' }) }),
      profileName: () => this.options.profileName,
      catchUpWindowMs: () => this.options.jobs?.catchUpWindowMs ?? 0,
      scrub: (text) => this.options.scrub(text),
      script: () => ({ workspace: this.options.toolContext.workspace, terminal: this.options.toolContext.terminal }),
    });
    this.intake = this.acceptDeps();
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
    // MCP servers connect in the background; a session starting meanwhile waits for their first outcome.
    this.options.mcp?.start().catch((error: unknown) => this.logger.error({ err: error }, 'the MCP servers could not be started'));
    // The background loops wait for the adapters' first connect (at most LOOPS_WAIT_MS): on two cores, starting them
    // at once delayed a Telegram gateway's ready by ~80 ms.
    this.loops.startAfter({ after: Promise.race([this.slots.firstOutcomes(), this.clock.sleep(LOOPS_WAIT_MS, this.loops.signal).catch(() => undefined)]) });
    this.replay();
    if (this.options.jobs !== undefined) this.schedulerRun = this.scheduler.run({ signal: this.loops.signal });
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
          const mailbox = this.mailboxes.get({ key });
          const row = mailbox?.runningRow;
          if (mailbox && row && mailbox.interrupt({ kind: 'shutdown' })) interrupted.push(row);
        }
      },
    });
    for (const row of interrupted) {
      const slot = this.slots.get({ name: row.event.platform });
      if (slot && this.phase === 'running') this.mailboxes.for({ key: row.sessionKey, entry: slot.entry }).enqueue({ row, replay: true });
    }
  }

  /** Settings from a reloaded config (a new agent for model/prompt changes, new options): used by turns that start from now on. */
  reconfigure(params: { agent: AIAgent; options: RunnerOptions }): void {
    this.agent = params.agent;
    this.options = params.options;
    if (this.phase === 'running') this.loops.reconfigured();
  }

  /** What /status reads for the session's context use, when the context length is known. */
  private contextUsage(): ((params: { sessionId: string }) => ContextUsage | undefined) | undefined {
    const modelContext = this.options.modelContext;
    if (modelContext === undefined) return undefined;
    const { agent, store } = this;
    return ({ sessionId }) => sessionContextUsage({ store, sessionId, agent, length: sessionContextLength({ store, sessionId, modelContext }) });
  }

  /** Status of every adapter. */
  adapterStatuses(): AdapterStatus[] {
    return this.slots.statuses();
  }

  /** The /healthz report. */
  health(): HealthReport {
    const { phase, startedAt } = this;
    const common = { phase, startedAt, now: this.clock.now(), profileName: this.options.profileName, scrub: this.options.scrub };
    const mcp = this.options.mcp?.health({ scrub: this.options.scrub }) ?? [];
    return gatewayHealth({ ...common, adapters: this.adapterStatuses(), model: this.loops.modelStatus(), disk: this.disk.status(), mcp });
  }

  /**
   * Takes one inbound message from an adapter. Resolves once it is durably journaled (or deliberately
   * dropped), so the adapter may then acknowledge it to its platform. Rejects with JournalRefusedError when the
   * disk refuses the journal write: the adapter must not acknowledge, so the platform delivers it again.
   */
  async accept(params: { event: MessageEvent; via: string }): Promise<AcceptResult> {
    return acceptEvent({ deps: this.intake, ...params });
  }

  /** What taking a message needs of the runner: built once, read on every inbound message. */
  private acceptDeps(): AcceptDeps {
    const { store, logger, slots, gate, mailboxes, questions, background } = this;
    return {
      store, logger, slots, gate, mailboxes, questions, background,
      phase: () => this.phase,
      skillsDir: () => this.options.skillsDir,
      journal: (p) => this.journal(p),
      control: (p) => this.control(p),
    };
  }

  /**
   * Starts a turn the system makes itself (a job's run, the heartbeat, a check): journaled as a synthetic message,
   * routed to `sessionKey`, queued, paced, delivered and replayed after a crash like a user's message, without the sender
   * gate, reply-to or reactions. `finished` tells how it ended and which platform message ids its reply got.
   */
  inject(params: InjectParams): InjectResult {
    if (this.phase !== 'running') return { kind: 'refused', reason: 'the gateway is not running' };
    const slot = this.slots.get({ name: params.platform });
    if (!slot) return { kind: 'refused', reason: `no ${params.platform} adapter is running` };
    const enqueue = (row: InboxRow): boolean => {
      this.mailboxes.for({ key: row.sessionKey, entry: slot.entry }).enqueue({ row });
      return true;
    };
    // What the system puts in a turn (a check's command output, HEARTBEAT.md, a script's output) is scrubbed of the
    // profile's secrets before it is journaled, stored or sent to the model, as a tool's output is.
    const text = this.options.scrub(params.text);
    return injectTurn({ ...params, text, store: this.store, clock: this.clock, watch: this.injected, enqueue });
  }

  /** Authorizes and journals an event; a write the disk refuses becomes JournalRefusedError (logged rate-limited per platform). */
  private journal(params: { event: MessageEvent; entry: AdapterEntry }): JournalResult {
    return journalEvent({ ...params, gate: this.gate, store: this.store, refusals: this.refusals, profile: this.options.profileName });
  }

  /** Resolves when no session has a running or waiting turn and every command reply is out. */
  async waitIdle(): Promise<void> {
    for (let busy = this.mailboxes.busy(); busy.length > 0 || this.replies.pending > 0; busy = this.mailboxes.busy()) {
      await Promise.all([...busy.map((m) => m.idle()), this.replies.drain()]);
    }
  }

  /**
   * Stops intake, lets running turns finish for up to the drain timeout, then interrupts them; closes the store. A turn
   * running delegate_task children is interrupted at once (children and their commands with it): it is left open and
   * replayed on the next start, as a turn the drain timeout cut short.
   */
  async stop(): Promise<void> {
    if (this.phase === 'stopped' || this.phase === 'draining') return;
    this.phase = 'draining';
    this.logger.info({ busySessions: this.mailboxes.busy().length }, 'gateway draining');
    this.loops.abort();
    // Waiting questions end unanswered; approvals' questions are edited (buttons removed) while the adapters can still edit.
    await this.questions.cancelAll({ why: 'the gateway is stopping', close: true });
    const backgroundStopped = this.background.stop();
    const adaptersStopped = this.slots.stopAll();
    for (const mailbox of this.mailboxes.all()) mailbox.clearQueue();
    this.delegations.stopping({ interrupt: ({ sessionKey }) => this.interruptDelegating({ sessionKey }) });
    const drained = await this.mailboxes.settle({ timeoutMs: this.options.drainTimeoutMs });
    if (!drained) {
      this.logger.warn({ timeoutMs: this.options.drainTimeoutMs }, 'drain timeout: interrupting running turns; they resume on next start');
      for (const mailbox of this.mailboxes.all()) mailbox.interrupt({ kind: 'shutdown' });
      await this.mailboxes.settle({ timeoutMs: 5000 });
    }
    this.injected.closeAll();
    await Promise.allSettled([this.schedulerRun, adaptersStopped, backgroundStopped, this.loops.settled(), this.replies.drain(), this.options.mcp?.close()]);
    this.stopDiskWatch();
    this.refusals.close();
    if (this.http) await this.http.close();
    this.store.close();
    this.phase = 'stopped';
    this.logger.info('gateway stopped');
  }

  /** Interrupts (kind shutdown) the session's turn that runs sub-agents while the gateway stops. */
  private interruptDelegating(params: { sessionKey: string }): void {
    const mailbox = this.mailboxes.get({ key: params.sessionKey });
    if (mailbox?.interrupt({ kind: 'shutdown' }) !== true) return;
    this.logger.info({ inboxId: mailbox.runningRow?.id }, 'stopping: a turn running sub-agents is interrupted now; it resumes on next start');
  }

  private async control(params: { row: InboxRow; command: MessageCommand }): Promise<void> {
    const { store, agent, options, clock, logger, mailboxes, slots, questions, replies, startedAt } = this;
    const deps = { store, agent, options, clock, logger, mailboxes, slots, questions, replies, startedAt, signal: this.loops.signal };
    await answerControl({ deps: { ...deps, compression: this.compressionDeps().compression, contextUsage: this.contextUsage(), adapters: () => this.adapterStatuses() }, ...params });
  }

  private async turn(params: { row: InboxRow; merged: readonly InboxRow[]; signal: AbortSignal; typing?: TypingHandle; steering?: SteeringSource }): Promise<void> {
    let used: { ran: boolean };
    let delivered: { sessionId: string; modelCalls: number } | undefined;
    try {
      used = await this.slots.use({
        name: params.row.event.platform,
        sessionKey: params.row.sessionKey,
        fn: (slot) => this.runTurnOn({ ...params, slot, onDelivered: (d) => (delivered = d) }),
      });
    } catch (error) {
      const refused = storeDiskErrorOf({ error });
      if (refused === undefined) throw error;
      // The message is journaled but its turn could not be recorded: finish it once the store writes again.
      this.stalled.add({ row: params.row, merged: params.merged, operation: refused.operation });
      this.logger.warn({ inboxId: params.row.id, code: refused.code }, `turn stopped: the store cannot write (${diskReason({ kind: refused.kind })}); it runs again when the disk takes writes`);
      return;
    }
    if (!used.ran) this.logger.warn({ inboxId: params.row.id, platform: params.row.event.platform }, 'no adapter for a pending message; it stays journaled');
    // After a delivered turn, in the background: the session's review when due (never holding its mailbox).
    if (delivered === undefined || this.phase !== 'running' || params.row.event.system !== undefined) return;
    const { row } = params;
    const queued = this.mailboxes.get({ key: row.sessionKey })?.queued ?? 0;
    const { store, logger, replies, options, agent } = this;
    startReviewIfDue({ work: this.background, store, logger, replies, key: row.sessionKey, sessionId: delivered.sessionId, turnModelCalls: delivered.modelCalls, event: row.event, queued, options, agent, metrics: this.http?.metrics });
  }

  private async runTurnOn(params: { row: InboxRow; merged: readonly InboxRow[]; signal: AbortSignal; typing?: TypingHandle; steering?: SteeringSource; slot: AdapterSlot; onDelivered: TurnDeps['onDelivered'] }): Promise<void> {
    const { row } = params;
    const onFinished: TurnDeps['onFinished'] =
      row.event.system === undefined ? undefined : (end) => this.injected.settle({ inboxId: row.id, end: { ...end, messageIds: turnMessageIds({ store: this.store, inboxId: row.id }) } });
    const { store, agent, clock, logger, options } = this;
    const deps = meteredTurn({ deps: turnDepsFor({ store, agent, clock, logger, slot: params.slot, options, maxAttempts: maxTurnAttempts, compression: this.compressionDeps(), onDelivered: params.onDelivered, onFinished, approvals: this.questions.approvals, slots: this.slots, clarifications: this.questions.clarifications, metrics: this.http?.metrics, delegations: this.delegations }), metrics: this.http?.metrics, row, clock });
    await runTurn({ row, merged: params.merged, signal: params.signal, ...(params.typing === undefined ? {} : { typing: params.typing }), ...(params.steering === undefined ? {} : { steering: params.steering }), deps });
  }

  /** The turn's compression deps: the configured settings with the context length in force, its summaries' model calls counted. */
  private compressionDeps(): { compression?: CompressionDeps } {
    const { compression, modelContext } = this.options;
    if (compression === undefined || modelContext === undefined) return {};
    const summarise = meteredComplete({ complete: compression.summarise, metrics: this.http?.metrics, purpose: 'compression' });
    const { store } = this;
    return { compression: { ...compression, summarise, contextLength: ({ sessionId }) => sessionContextLength({ store, sessionId, modelContext }).tokens } };
  }

  private onDiskChange(change: DiskChange): void {
    if (change.state === 'failed') {
      const { part, kind, detail } = change.problem;
      this.logger.error({ part, kind, detail }, `disk refuses writes (${diskReason({ kind })}): the gateway runs degraded until it takes them again`);
      return;
    }
    this.logger.info({ part: change.part, failedForMs: change.failedFor }, 'disk takes writes again');
    if (change.part === 'store') this.resumeStalled();
  }

  /** Finishes the turns a refused store write cut short, running again those whose reply is not out. */
  private resumeStalled(): void {
    if (this.phase !== 'running') return;
    this.stalled.resume({
      enqueue: (row) => {
        const slot = this.slots.get({ name: row.event.platform });
        if (slot) this.mailboxes.for({ key: row.sessionKey, entry: slot.entry }).enqueue({ row, replay: true });
      },
    });
  }

  private replay(): void {
    replayPending({ store: this.store, slots: this.slots, mailboxes: this.mailboxes, logger: this.logger });
  }
}
