import { HeldAnswers, type HeldAnswer } from '../held-answers.js';
import { ApiError, defaultDescription, notFound, tooManyRequests, unauthorized } from './errors.js';
import { methodHandler } from './methods.js';
import type { ParsedRequest } from './params.js';
import type { TelegramState } from './state.js';
import type { CallRecord, FailRule } from './types.js';

/** How the HTTP layer answers a call: a JSON body with a status, or by dropping the connection. */
export type CallOutcome = { kind: 'json'; status: number; body: unknown } | { kind: 'drop' };

interface ArmedRule {
  rule: FailRule;
  remaining: number;
}

/** Runs Bot API calls: token check, call log, injected failures, then the method handler. */
export class Dispatcher {
  /** Every call received, in arrival order. */
  readonly calls: CallRecord[] = [];
  private readonly state: TelegramState;
  private readonly token: string;
  private rules: ArmedRule[] = [];
  private readonly held = new HeldAnswers();
  /** Holds of one chat's calls, keyed `<before|after>:<method>:<chat_id>`. */
  private readonly chatHeld = new HeldAnswers();

  constructor(params: { state: TelegramState; token: string }) {
    this.state = params.state;
    this.token = params.token;
  }

  /** Arms a failure for the next `count` (default 1) calls of a method. */
  failNext(params: { rule: FailRule }): void {
    const count = params.rule.count ?? 1;
    if (!Number.isInteger(count) || count < 1) throw new Error(`FakeTelegram.failNext: count must be a positive integer, got ${count}`);
    this.rules.push({ rule: params.rule, remaining: count });
  }

  /** Disarms every failure failNext armed that has not fired yet. */
  clearFailures(): void {
    this.rules = [];
  }

  /** Makes the next call of a method take effect but hold its answer until released (or the client is gone). */
  holdNext(params: { method: string }): HeldAnswer {
    const method = params.method.toLowerCase();
    return this.held.holdNext({ matches: (key) => key === method });
  }

  /**
   * Holds the next call of a method to one chat: `before` it takes effect (the client that dies meanwhile made no
   * message: the call is dropped unanswered) or `after` (it took effect; its answer is held, as holdNext).
   */
  holdNextIn(params: { method: string; chatId: number; when: 'before' | 'after' }): HeldAnswer {
    const key = `${params.when}:${params.method.toLowerCase()}:${params.chatId}`;
    return this.chatHeld.holdNext({ matches: (k) => k === key });
  }

  /** Handles POST/GET /bot<token>/<method>. */
  async call(params: { token: string; method: string; request: ParsedRequest; signal: AbortSignal }): Promise<CallOutcome> {
    const record: CallRecord = {
      method: params.method,
      params: params.request.params,
      uploads: [...params.request.uploads].map(([field, u]) => ({ field, fileName: u.fileName, size: u.bytes.length })),
      at: this.state.clock.now(),
    };
    this.calls.push(record);
    this.state.changed();
    let outcome: CallOutcome;
    try {
      outcome = await this.run(params);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const description = `Internal Server Error: FakeTelegram failed in ${params.method}: ${message}`;
      outcome = { kind: 'json', status: 500, body: { ok: false, error_code: 500, description } };
    }
    record.status = outcome.kind === 'json' && !params.signal.aborted ? outcome.status : 0;
    record.answeredAt = this.state.clock.now();
    this.state.changed();
    return outcome;
  }

  private async run(params: { token: string; method: string; request: ParsedRequest; signal: AbortSignal }): Promise<CallOutcome> {
    if (params.token !== this.token) return errorOutcome(unauthorized());
    const rule = this.takeRule(params.method);
    if (rule && 'status' in rule) return errorOutcome(injected(rule));
    if (rule?.drop === 'before') return { kind: 'drop' };
    const method = params.method.toLowerCase();
    const chatId = String(params.request.params['chat_id'] ?? '');
    const before = this.chatHeld.take({ key: `before:${method}:${chatId}` });
    if (before) {
      await before.wait(params.signal);
      if (params.signal.aborted) return { kind: 'drop' };
    }
    const handler = methodHandler({ method: params.method });
    if (!handler) return errorOutcome(notFound());
    let outcome: CallOutcome;
    try {
      const result = await handler({ state: this.state, params: params.request.params, uploads: params.request.uploads, signal: params.signal });
      outcome = { kind: 'json', status: 200, body: { ok: true, result } };
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      outcome = errorOutcome(error);
    }
    const hold = this.held.take({ key: method }) ?? this.chatHeld.take({ key: `after:${method}:${chatId}` });
    if (hold) {
      await hold.wait(params.signal);
      if (params.signal.aborted) return { kind: 'drop' };
    }
    return rule?.drop === 'after' ? { kind: 'drop' } : outcome;
  }

  private takeRule(method: string): FailRule | undefined {
    const armed = this.rules.find((r) => r.rule.method.toLowerCase() === method.toLowerCase());
    if (!armed) return undefined;
    armed.remaining -= 1;
    if (armed.remaining === 0) this.rules = this.rules.filter((r) => r !== armed);
    return armed.rule;
  }
}

function injected(rule: Extract<FailRule, { status: number }>): ApiError {
  if (rule.status === 429 && rule.description === undefined) return tooManyRequests({ retryAfter: rule.retryAfter ?? 1 });
  const parameters = rule.retryAfter !== undefined ? { retry_after: rule.retryAfter } : undefined;
  return new ApiError({
    status: rule.status,
    description: rule.description ?? defaultDescription({ status: rule.status }),
    ...(parameters ? { parameters } : {}),
  });
}

function errorOutcome(error: ApiError): CallOutcome {
  return { kind: 'json', status: error.status, body: error.body() };
}
