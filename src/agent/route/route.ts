import OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { Clock } from '../../core/clock.js';
import type { ClassifiedError, FailureReason, OnModelAttempt } from '../errors.js';
import { callModel } from '../model-call.js';
import type { StreamedReply } from '../stream.js';
import type { AgentLogger } from '../errors.js';
import { CredentialPool, type KeyStatus, type PoolKey } from './pool.js';
import { exhaustedMessage, fallbackNote, fallbacksFailedNote } from './wording.js';

/** One model of the route: an endpoint, a model name and its key pool. */
export interface RouteTarget {
  /** Model name sent with each request. */
  readonly name: string;
  /** The endpoint (for status lines and new clients). */
  readonly baseURL: string;
  /** Its keys. */
  readonly pool: CredentialPool;
  /** True when no key is configured (a local server): failures never rest the placeholder key. */
  readonly keyless: boolean;
  /** The SDK client for one of its keys. */
  readonly client: (key: PoolKey) => OpenAI;
}

/** One target's keys for doctor and /status. */
export interface TargetStatus {
  /** "primary" or "fallback 1", ... */
  readonly role: string;
  /** Model name. */
  readonly name: string;
  /** Its keys, masked (empty when keyless). */
  readonly keys: readonly KeyStatus[];
  /** When the states were read. */
  readonly now: number;
}

/** How one routed model call ended. */
export type RouteOutcome =
  | { kind: 'ok'; reply: StreamedReply; model: string }
  | { kind: 'aborted'; partialText: string }
  | { kind: 'error'; error: ClassifiedError | undefined; userMessage: string; partialText: string };

/** What every call of the route shares. */
interface RouteSettings {
  clock: Clock;
  maxRetries: number;
  idleTimeoutMs: number;
  logger?: AgentLogger | undefined;
  timeZone?: string | undefined;
}

/**
 * The primary model with its credential pool, then the fallback models in order. Each turn starts on the primary;
 * a failure whose flags say so rotates the key (same call, next key) or moves to the next model for the rest of the
 * turn. Sub-agents and scheduled jobs use the same route.
 */
export class ModelRoute {
  /** Primary first, then fallbacks. */
  readonly targets: readonly RouteTarget[];
  private readonly settings: RouteSettings;

  constructor(params: RouteSettings & { targets: readonly RouteTarget[] }) {
    const { targets, ...settings } = params;
    if (targets.length === 0) throw new RangeError('a model route needs at least one model');
    this.targets = targets;
    this.settings = settings;
  }

  /** The time zone status lines and messages show times in (the host's when unset). */
  get timeZone(): string | undefined {
    return this.settings.timeZone;
  }

  /** The primary model's name. */
  get primaryModel(): string {
    return (this.targets[0] as RouteTarget).name;
  }

  /** A route over one ready client (no pool, no fallbacks; the key never rests beyond this process). */
  static fromClient(params: RouteSettings & { client: OpenAI; model: string }): ModelRoute {
    const { client, model, ...settings } = params;
    const pool = new CredentialPool({ keys: [client.apiKey ?? ''], strategy: 'fill_first', clock: params.clock });
    return new ModelRoute({ ...settings, targets: [{ name: model, baseURL: client.baseURL, pool, keyless: true, client: () => client }] });
  }

  /**
   * State for one turn: it starts on the primary, or on `model` when given (a session's /model choice): a model of the
   * route starts the turn on that target (its keys), then the others in order; any other name is sent to the primary's
   * endpoint with the primary's keys, the fallbacks after it.
   */
  startTurn(params: { model?: string | undefined } = {}): RouteTurn {
    return new RouteTurn({ targets: turnTargets({ targets: this.targets, model: params.model }), settings: this.settings });
  }

  /** Each target's keys, masked. */
  status(): TargetStatus[] {
    return this.targets.map((t, i) => ({
      role: i === 0 ? 'primary' : `fallback ${i}`,
      name: t.name,
      keys: t.keyless ? [] : t.pool.status(),
      now: this.settings.clock.now(),
    }));
  }
}

/** The targets of one turn, in the order tried: the route's, or starting on a chosen model (see ModelRoute.startTurn). */
function turnTargets(params: { targets: readonly RouteTarget[]; model: string | undefined }): readonly RouteTarget[] {
  const { targets, model } = params;
  if (model === undefined || model === '') return targets;
  const chosen = targets.find((t) => t.name === model);
  if (chosen !== undefined) return [chosen, ...targets.filter((t) => t !== chosen)];
  const primary = targets[0] as RouteTarget;
  return [{ ...primary, name: model }, ...targets.slice(1)];
}

/** One turn on a route: remembers which model answers for the rest of the turn and why. */
export class RouteTurn {
  /** The turn's targets, first tried first. */
  private readonly targets: readonly RouteTarget[];
  private readonly settings: RouteSettings;
  private index = 0;
  private fallbackReason: FailureReason | 'keys_resting' | undefined;
  /** True once a fallback model answered a call of this turn. */
  private fallbackAnswered = false;

  constructor(params: { targets: readonly RouteTarget[]; settings: RouteSettings }) {
    this.targets = params.targets;
    this.settings = params.settings;
  }

  /** The one-line note for the user when a fallback model answered this turn. */
  note(): string | undefined {
    if (!this.fallbackAnswered || this.fallbackReason === undefined) return undefined;
    const target = this.targets[this.index] as RouteTarget;
    return fallbackNote({ model: target.name, reason: this.fallbackReason });
  }

  /** One model call: keys of the current model in pool order, then the next models, until one answers. */
  async call(params: {
    request: Omit<ChatCompletionCreateParamsStreaming, 'stream' | 'model'>;
    signal: AbortSignal;
    onText: (delta: string) => void;
    /** Told how each request ended: every attempt on every key and model (metrics). */
    onAttempt?: OnModelAttempt | undefined;
  }): Promise<RouteOutcome> {
    const { targets } = this;
    let first: { error: ClassifiedError | undefined; userMessage: string } | undefined;
    const failed: { model: string; reason: FailureReason | 'keys_resting' }[] = [];
    for (; this.index < targets.length; this.index++) {
      const target = targets[this.index] as RouteTarget;
      const ended = await this.tryTarget({ ...params, target });
      if (ended.kind === 'ok' && this.index > 0) this.fallbackAnswered = true;
      if (ended.kind !== 'next') return ended;
      if (first === undefined) first = { error: ended.error, userMessage: ended.userMessage };
      else failed.push({ model: target.name, reason: ended.error?.reason ?? 'keys_resting' });
      const next = targets[this.index + 1];
      if (next) {
        this.fallbackReason = this.index === 0 ? (ended.error?.reason ?? 'keys_resting') : this.fallbackReason;
        this.settings.logger?.warn(
          { from: target.name, to: next.name, reason: ended.error?.reason ?? 'keys_resting' },
          'model failed; trying the next fallback model',
        );
      }
    }
    this.index = targets.length - 1;
    const last = first ?? { error: undefined, userMessage: 'No model could answer.' };
    const also = targets.length > 1 ? fallbacksFailedNote({ failed }) : '';
    return { kind: 'error', error: last.error, userMessage: last.userMessage + also, partialText: '' };
  }

  /** Calls one model, rotating keys; `next` means: move on to the next model. */
  private async tryTarget(params: {
    target: RouteTarget;
    request: Omit<ChatCompletionCreateParamsStreaming, 'stream' | 'model'>;
    signal: AbortSignal;
    onText: (delta: string) => void;
    onAttempt?: OnModelAttempt | undefined;
  }): Promise<RouteOutcome | { kind: 'next'; error: ClassifiedError | undefined; userMessage: string }> {
    const { target } = params;
    const { clock, logger } = this.settings;
    const tried = new Set<string>();
    let last: ClassifiedError | undefined;
    for (;;) {
      const pick = target.pool.pick({ tried });
      if (pick.kind === 'exhausted') {
        if (last) return { kind: 'next', error: last, userMessage: last.userMessage };
        const userMessage = exhaustedMessage({ model: target.name, nextAt: pick.nextAt, reason: pick.reason, timeZone: this.settings.timeZone, now: clock.now() });
        logger?.warn({ model: target.name, until: pick.nextAt, reason: pick.reason }, 'every API key of the model is cooling down');
        return { kind: 'next', error: undefined, userMessage };
      }
      const { key } = pick;
      if (!target.keyless) target.pool.recordUse({ key });
      const outcome = await callModel({
        client: target.client(key),
        request: { ...params.request, model: target.name },
        signal: params.signal,
        clock,
        // A probe of a resting key is one request: a key still failing must not cost the turn a round of backoff.
        maxRetries: pick.probe === true ? 0 : this.settings.maxRetries,
        idleTimeoutMs: this.settings.idleTimeoutMs,
        onText: params.onText,
        onAttempt: params.onAttempt,
        ...(logger ? { logger } : {}),
      });
      if (outcome.kind === 'ok') {
        if (pick.probe === true) {
          target.pool.clearCooldown({ key });
          logger?.info?.({ model: target.name, key: key.masked }, 'a resting API key answered again; its cooldown is over');
        }
        return { kind: 'ok', reply: outcome.reply, model: target.name };
      }
      if (outcome.kind === 'aborted') return outcome;
      const { error } = outcome;
      // Text already shown cannot be taken back: the turn ends with it, whatever the flags say.
      if (outcome.partialText !== '') return { kind: 'error', error, userMessage: error.userMessage, partialText: outcome.partialText };
      last = error;
      if (pick.probe === true) tried.add(key.fingerprint);
      if (error.shouldRotateCredential) {
        tried.add(key.fingerprint);
        if (!target.keyless) {
          const until = target.pool.coolDown({ key, reason: error.reason });
          logger?.warn({ model: target.name, key: key.masked, reason: error.reason, until }, 'API key cooling down; trying the next key');
        }
        continue;
      }
      if (error.shouldFallback) return { kind: 'next', error, userMessage: error.userMessage };
      return { kind: 'error', error, userMessage: error.userMessage, partialText: '' };
    }
  }
}
