/** Builds chat.completion and chat.completion.chunk bodies the way OpenAI shapes them. */

/** A tool call a scripted reply makes. */
export interface ScriptedToolCall {
  /** Call id; generated when omitted. */
  id?: string;
  /** Tool name. */
  name: string;
  /** Arguments as JSON text, or an object to serialize. */
  arguments: string | object;
}

/** One scripted answer of the fake. */
export interface ScriptedReply {
  /** Assistant text (split into several deltas when streamed). */
  text?: string;
  /** Explicit content deltas for streaming; overrides how `text` is split. */
  chunks?: string[];
  /** Tool calls the assistant makes. */
  toolCalls?: ScriptedToolCall[];
  /** Delay before each streamed chunk. */
  chunkDelayMs?: number;
  /** Answer with this HTTP error status and an OpenAI-style error body instead. */
  status?: number;
  /** Error message for `status` replies. */
  errorMessage?: string;
  /** Error code for `status` replies (e.g. "insufficient_quota"). */
  errorCode?: string;
  /** Retry-After header (seconds) for `status` replies. */
  retryAfterSeconds?: number;
  /** Retry-After header sent as given (e.g. an HTTP date) for `status` replies; wins over `retryAfterSeconds`. */
  retryAfter?: string;
  /**
   * Send this many chunks after the opening role-only chunk (content pieces first, then tool call pieces),
   * then keep the connection open until the client goes away. Non-streaming requests get no answer at all.
   */
  hangAfterChunks?: number;
  /** Send this many chunks after the opening role-only chunk, then destroy the connection (a broken stream). */
  breakAfterChunks?: number;
  /** Token counts of the usage chunk (sent when the request set `stream_options.include_usage`); default: estimated. */
  usage?: { prompt_tokens?: number; completion_tokens?: number; cached_tokens?: number };
  /** finish_reason of the last chunk; default "tool_calls" when there are tool calls, else "stop". */
  finishReason?: 'stop' | 'length' | 'tool_calls' | 'content_filter';
}

/** A tool call with its id fixed and arguments serialized. */
export interface ResolvedToolCall {
  /** Call id. */
  id: string;
  /** Tool name. */
  name: string;
  /** Arguments as JSON text. */
  arguments: string;
}

/** Fixes ids and serializes arguments of a reply's tool calls. */
export function resolveToolCalls(params: { reply: ScriptedReply; callSeq: () => number }): ResolvedToolCall[] {
  return (params.reply.toolCalls ?? []).map((call) => ({
    id: call.id ?? `call_${params.callSeq()}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
}

/** Splits text into pieces of about `size` characters. */
export function splitText(params: { text: string; size: number }): string[] {
  const out: string[] = [];
  for (let i = 0; i < params.text.length; i += params.size) out.push(params.text.slice(i, i + params.size));
  return out;
}

/** The `delta` objects of a streamed reply, in order, ending with the finish chunk's empty delta. */
export function streamDeltas(params: {
  reply: ScriptedReply;
  toolCalls: ResolvedToolCall[];
}): { delta: Record<string, unknown>; finishReason: string | null }[] {
  const { reply, toolCalls } = params;
  const out: { delta: Record<string, unknown>; finishReason: string | null }[] = [];
  out.push({ delta: { role: 'assistant', content: '', refusal: null }, finishReason: null });
  const pieces = reply.chunks ?? splitText({ text: reply.text ?? '', size: 4 });
  for (const piece of pieces) out.push({ delta: { content: piece }, finishReason: null });
  toolCalls.forEach((call, index) => {
    out.push({
      delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] },
      finishReason: null,
    });
    const size = Math.max(1, Math.ceil(call.arguments.length / 3));
    for (const piece of splitText({ text: call.arguments, size })) {
      out.push({ delta: { tool_calls: [{ index, function: { arguments: piece } }] }, finishReason: null });
    }
  });
  out.push({ delta: {}, finishReason: finishReasonOf({ reply, toolCalls }) });
  return out;
}

/** The finish_reason a reply ends with. */
export function finishReasonOf(params: { reply: ScriptedReply; toolCalls: ResolvedToolCall[] }): string {
  return params.reply.finishReason ?? (params.toolCalls.length > 0 ? 'tool_calls' : 'stop');
}

/** A non-streaming chat.completion body. */
export function completionBody(params: {
  id: string;
  model: string;
  reply: ScriptedReply;
  toolCalls: ResolvedToolCall[];
}): Record<string, unknown> {
  const { reply, toolCalls } = params;
  const message: Record<string, unknown> = { role: 'assistant', content: reply.text ?? null, refusal: null };
  if (toolCalls.length > 0) {
    message['tool_calls'] = toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return {
    id: params.id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: params.model,
    choices: [{ index: 0, message, finish_reason: finishReasonOf({ reply, toolCalls }), logprobs: null }],
    usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
  };
}

/** An OpenAI-style error body. */
export function errorBody(params: { status: number; message?: string; code?: string }): Record<string, unknown> {
  const type = params.status === 429 ? 'rate_limit_exceeded' : params.status >= 500 ? 'server_error' : 'invalid_request_error';
  return {
    error: {
      message: params.message ?? `FakeOpenAI scripted error ${params.status}`,
      type,
      param: null,
      code: params.code ?? null,
    },
  };
}

/** Characters shared at the start of two strings. */
function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/**
 * The `usage` object of a reply, shaped like OpenAI's: about 4 characters a token; `cached_tokens` counts the
 * prompt prefix shared with the previous request (a prefix cache), unless the reply scripts its own numbers.
 */
export function usageBody(params: {
  reply: ScriptedReply;
  prompt: string;
  previousPrompt: string | undefined;
  toolCalls: ResolvedToolCall[];
}): Record<string, unknown> {
  const { reply } = params;
  const completionChars = (reply.chunks?.join('') ?? reply.text ?? '').length + params.toolCalls.reduce((n, c) => n + c.name.length + c.arguments.length, 0);
  const prompt = reply.usage?.prompt_tokens ?? Math.ceil(params.prompt.length / 4);
  const completion = reply.usage?.completion_tokens ?? Math.ceil(completionChars / 4);
  const cached = reply.usage?.cached_tokens ?? (params.previousPrompt === undefined ? 0 : Math.floor(commonPrefix(params.prompt, params.previousPrompt) / 4));
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: Math.min(cached, prompt), audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}
