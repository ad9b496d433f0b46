/** The OpenAI wire format the API speaks: response bodies, stream chunks and error bodies. */

/** An OpenAI-style error body: `param` names the request field at fault (null when none). */
export interface ApiErrorBody {
  readonly error: { readonly message: string; readonly type: string; readonly code: string | null; readonly param: string | null };
}

/** The error body for `message`; `param` is the field at fault, when one is. */
export function errorBody(params: { message: string; type: string; code: string | null; param?: string | null }): ApiErrorBody {
  return { error: { message: params.message, type: params.type, code: params.code, param: params.param ?? null } };
}

/** What one completion is identified by in every body and chunk of its answer. */
export interface CompletionIds {
  /** `chatcmpl-...`, the same in every chunk. */
  readonly id: string;
  /** Unix seconds. */
  readonly created: number;
  readonly model: string;
}

/** A streamed chunk: the role first, then content deltas, then the finish reason alone. */
export function chunkBody(params: { ids: CompletionIds; delta: { role?: 'assistant'; content?: string }; finishReason: 'stop' | null }): Record<string, unknown> {
  const { ids } = params;
  return {
    id: ids.id,
    object: 'chat.completion.chunk',
    created: ids.created,
    model: ids.model,
    system_fingerprint: null,
    choices: [{ index: 0, delta: params.delta, logprobs: null, finish_reason: params.finishReason }],
  };
}

/** The whole answer of a request that did not stream. Usage is not counted here (the gateway keeps its own): zeros. */
export function completionBody(params: { ids: CompletionIds; content: string }): Record<string, unknown> {
  const { ids } = params;
  return {
    id: ids.id,
    object: 'chat.completion',
    created: ids.created,
    model: ids.model,
    system_fingerprint: null,
    choices: [{ index: 0, message: { role: 'assistant', content: params.content, refusal: null }, logprobs: null, finish_reason: 'stop' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

/** One server-sent event line carrying `data` as JSON (or the literal `[DONE]`). */
export function sseData(params: { data: unknown }): string {
  return `data: ${typeof params.data === 'string' ? params.data : JSON.stringify(params.data)}\n\n`;
}

/** The model list GET /v1/models answers: the profile's agent, as one model. */
export function modelBody(params: { model: string; created: number }): Record<string, unknown> {
  return { id: params.model, object: 'model', created: params.created, owned_by: 'hermes' };
}
