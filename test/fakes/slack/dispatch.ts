import { HeldAnswers, type HeldAnswer } from '../held-answers.js';
import { SlackApiError, type MethodHandler } from './method-kit.js';
import * as chat from './methods-chat.js';
import * as files from './methods-files.js';
import * as workspace from './methods-workspace.js';
import type { SlackState } from './state.js';
import type { CallRecord, FailRule, Params } from './types.js';

/** An HTTP answer for a Web API call. */
export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

const BOT_METHODS: Record<string, MethodHandler> = {
  'auth.test': workspace.authTest,
  'chat.postMessage': chat.postMessage,
  'chat.update': chat.update,
  'chat.postEphemeral': chat.postEphemeral,
  'chat.delete': chat.remove,
  'reactions.add': chat.reaction({ add: true }),
  'reactions.remove': chat.reaction({ add: false }),
  'conversations.info': workspace.conversationsInfo,
  'conversations.history': chat.history,
  'conversations.replies': chat.replies,
  'users.info': workspace.usersInfo,
  'assistant.threads.setStatus': workspace.setThreadStatus,
  'files.getUploadURLExternal': files.getUploadUrl,
  'files.completeUploadExternal': files.completeUpload,
};

/** Routes Web API calls: token checks, injected failures, method handlers, call records. */
export class Dispatcher {
  /** Every call received, in arrival order. */
  readonly calls: CallRecord[] = [];
  private readonly state: SlackState;
  private readonly openConnection: () => string;
  private readonly held = new HeldAnswers();
  private failures: Array<Required<Omit<FailRule, 'error'>> & { error?: string }> = [];

  constructor(params: { state: SlackState; openConnection: () => string }) {
    this.state = params.state;
    this.openConnection = params.openConnection;
  }

  /** Queues failures for a method's next calls. */
  failNext(params: { rule: FailRule }): void {
    const { rule } = params;
    this.failures.push({
      method: rule.method,
      status: rule.status ?? 429,
      retryAfter: rule.retryAfter ?? 1,
      count: rule.count ?? 1,
      ...(rule.error !== undefined ? { error: rule.error } : {}),
    });
  }

  /** Makes the next call of a method take effect but hold its answer until released (or the client is gone). */
  holdNext(params: { method: string }): HeldAnswer {
    return this.held.holdNext({ matches: (key) => key === params.method });
  }

  /** Answers a call like `call`, holding the answer first when a hold is armed for the method; undefined when the client left meanwhile. */
  async callHeld(params: { method: string; params: Params; token: string | undefined; signal: AbortSignal }): Promise<ApiAnswer | undefined> {
    const answer = this.call(params);
    const hold = this.held.take({ key: params.method });
    if (!hold) return answer;
    await hold.wait(params.signal);
    return params.signal.aborted ? undefined : answer;
  }

  /** Answers one call of `method` with `params`; `token` comes from the Authorization header or the body. */
  call(params: { method: string; params: Params; token: string | undefined }): ApiAnswer {
    const { method, token } = params;
    const { token: _bodyToken, ...clean } = params.params;
    const record: CallRecord = { method, params: clean, at: this.state.clock.now(), status: 200 };
    this.calls.push(record);
    const answer = this.answer(method, clean, token);
    record.status = answer.status;
    if (answer.body['ok'] === false && typeof answer.body['error'] === 'string') record.error = answer.body['error'];
    this.state.changed();
    return answer;
  }

  private answer(method: string, params: Params, token: string | undefined): ApiAnswer {
    const failure = this.takeFailure(method);
    if (failure) return failure;
    const isAppMethod = method === 'apps.connections.open';
    const handler = BOT_METHODS[method];
    if (!isAppMethod && !handler) return fail('unknown_method');
    if (token === undefined || token === '') return fail('not_authed');
    const { identity } = this.state;
    if (isAppMethod) {
      if (token === identity.botToken) return fail('not_allowed_token_type');
      if (token !== identity.appToken) return fail('invalid_auth');
      return ok({ url: this.openConnection() });
    }
    if (token === identity.appToken) return fail('not_allowed_token_type');
    if (token !== identity.botToken) return fail('invalid_auth');
    try {
      return ok(handler?.({ state: this.state, params }) ?? {});
    } catch (error) {
      if (error instanceof SlackApiError) return fail(error.code);
      throw error;
    }
  }

  private takeFailure(method: string): ApiAnswer | undefined {
    const rule = this.failures.find((f) => f.method === method && f.count > 0);
    if (!rule) return undefined;
    rule.count -= 1;
    this.failures = this.failures.filter((f) => f.count > 0);
    if (rule.status === 429) {
      return { status: 429, headers: { 'retry-after': String(rule.retryAfter) }, body: { ok: false, error: 'ratelimited' } };
    }
    if (rule.status === 200) return fail(rule.error ?? 'internal_error');
    return { status: rule.status, headers: {}, body: { ok: false, error: rule.error ?? 'fatal_error' } };
  }
}

function ok(fields: Record<string, unknown>): ApiAnswer {
  return { status: 200, headers: {}, body: { ok: true, ...fields } };
}

function fail(error: string): ApiAnswer {
  return { status: 200, headers: {}, body: { ok: false, error } };
}
