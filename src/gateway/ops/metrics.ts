import { createRequire } from 'node:module';
import type { Counter, Histogram, Registry } from 'prom-client';
import type { FailureReason } from '../../agent/errors.js';
import type { AdapterStatus } from '../runtime/supervisor.js';

/** prom-client (about 10 MB with its OpenTelemetry dependency) is loaded when a gateway serves /metrics, not by every start. */
const loadCjs = createRequire(import.meta.url);
type PromClient = typeof import('prom-client');

/** Latency buckets in seconds: from a fast first send to a slow final edit. */
const latencyBuckets = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60];

/** Who made a model call: a turn's agent, a compression summary, a background review, a delegate_task child, the smart-approval judge. */
export type ModelCallPurpose = 'turn' | 'compression' | 'review' | 'delegate' | 'judge';

/** What the gauges read when scraped (the runner's live state). */
export interface MetricsSources {
  /** Messages waiting behind running turns, over all sessions. */
  readonly queueDepth: () => number;
  /** Every adapter's state. */
  readonly adapters: () => readonly AdapterStatus[];
}

/**
 * One gateway's Prometheus metrics in its own registry (never prom-client's global one, so two gateways in one process
 * do not collide), fed by the places that know: accept, the adapter slots (every platform call), the model calls, the
 * turn's end.
 */
export class GatewayMetrics {
  /** The registry /metrics serves. */
  readonly registry: Registry;
  private readonly messagesIn: Counter<'platform'>;
  private readonly messagesOut: Counter<'platform' | 'kind'>;
  private readonly turns: Counter<'platform' | 'outcome'>;
  private readonly firstSend: Histogram<'platform'>;
  private readonly finalLag: Histogram<'platform'>;
  private readonly modelCalls: Counter<'purpose' | 'outcome'>;
  private readonly rateLimits: Counter<'platform'>;
  private sources: MetricsSources | undefined;

  constructor() {
    const { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } = loadCjs('prom-client') as PromClient;
    this.registry = new Registry();
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'hermes_' });
    this.messagesIn = new Counter({ name: 'hermes_messages_in_total', help: 'Messages accepted from a platform (journaled; duplicates and unauthorized senders not counted).', labelNames: ['platform'], registers });
    this.messagesOut = new Counter({ name: 'hermes_messages_out_total', help: 'Platform calls that put a message on a platform (send) or changed one (edit): replies, command replies, prompts, notices, deliveries.', labelNames: ['platform', 'kind'], registers });
    this.turns = new Counter({ name: 'hermes_turns_total', help: 'Turns that ended, by outcome (delivered, silent, error, stopped, undelivered).', labelNames: ['platform', 'outcome'], registers });
    this.firstSend = new Histogram({ name: 'hermes_turn_first_send_seconds', help: 'From a message being accepted to the first message of its reply on the platform.', labelNames: ['platform'], buckets: latencyBuckets, registers });
    this.finalLag = new Histogram({ name: 'hermes_turn_final_lag_seconds', help: "From the model's last token to the reply's final send or edit.", labelNames: ['platform'], buckets: latencyBuckets, registers });
    this.modelCalls = new Counter({ name: 'hermes_model_calls_total', help: 'Requests to a model, each retry too, by purpose (turn, compression, review, delegate, judge) and outcome: ok or the failure reason.', labelNames: ['purpose', 'outcome'], registers });
    this.rateLimits = new Counter({ name: 'hermes_rate_limited_total', help: 'Platform 429s (retry_after) the gateway waited out, on any send, edit or typing call.', labelNames: ['platform'], registers });
    const sources = (): MetricsSources | undefined => this.sources;
    new Gauge({
      name: 'hermes_queue_depth',
      help: 'Messages waiting behind running turns.',
      registers,
      collect() {
        this.set(sources()?.queueDepth() ?? 0);
      },
    });
    new Gauge({
      name: 'hermes_adapter_state',
      help: 'Each adapter\'s state: 1 on the label of the state it is in.',
      labelNames: ['adapter', 'state'],
      registers,
      collect() {
        this.reset();
        for (const status of sources()?.adapters() ?? []) this.set({ adapter: status.name, state: status.state }, 1);
      },
    });
  }

  /** Connects the gauges to the runner's live state. */
  bind(sources: MetricsSources): void {
    this.sources = sources;
  }

  /** A message accepted from `platform`. */
  inbound(params: { platform: string }): void {
    this.messagesIn.inc({ platform: params.platform });
  }

  /** A message sent or edited on `platform` (any of the gateway's: replies, command replies, prompts, deliveries). */
  outbound(params: { platform: string; kind: 'send' | 'edit' }): void {
    this.messagesOut.inc({ platform: params.platform, kind: params.kind });
  }

  /** A platform answered 429 and the gateway waits its retry_after. */
  rateLimited(params: { platform: string }): void {
    this.rateLimits.inc({ platform: params.platform });
  }

  /** A request to a model ended (one attempt: a retried call counts each try). */
  modelCall(params: { purpose: ModelCallPurpose; outcome: 'ok' | FailureReason }): void {
    this.modelCalls.inc({ purpose: params.purpose, outcome: params.outcome });
  }

  /** A turn ended; with the times its latencies are observed (milliseconds). */
  turn(params: { platform: string; outcome: string; firstSendMs?: number; finalLagMs?: number }): void {
    this.turns.inc({ platform: params.platform, outcome: params.outcome });
    if (params.firstSendMs !== undefined) this.firstSend.observe({ platform: params.platform }, params.firstSendMs / 1000);
    if (params.finalLagMs !== undefined) this.finalLag.observe({ platform: params.platform }, params.finalLagMs / 1000);
  }

  /** The Prometheus text exposition of every metric. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }

  /** The exposition's content type. */
  get contentType(): string {
    return this.registry.contentType;
  }
}
