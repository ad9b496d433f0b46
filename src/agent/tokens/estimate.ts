import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { TokenCountCache } from './cache.js';
import { encodingFor, type CountMethod } from './encoding.js';

/** The parts of a chat.completions request that count toward its prompt tokens. */
export interface PromptRequest {
  readonly model: string;
  readonly messages: readonly ChatCompletionMessageParam[];
  readonly tools?: readonly ChatCompletionTool[] | undefined;
}

/** Tokens around each message in OpenAI's chat format (`<|start|>role<|message|>…<|end|>`). */
export const TOKENS_PER_MESSAGE = 3;
/** Tokens that prime the reply (`<|start|>assistant<|message|>`). */
export const REPLY_PRIMING_TOKENS = 3;
/** Tokens around each tool call of an assistant message (its id, type and framing). */
export const TOKENS_PER_TOOL_CALL = 8;
/** Tokens around the tools block of a request. */
export const TOOLS_OVERHEAD_TOKENS = 12;
/**
 * Tokens one image part counts for: about what OpenAI bills a high-detail image of media.image_max_edge (tiles of
 * 512 px at 170 tokens plus 85), and near Anthropic's (width × height / 750) for the same size.
 */
export const IMAGE_PART_TOKENS = 1_105;

/** The process-wide cache, shared by every estimate that is not given its own. */
const sharedCache = new TokenCountCache();

/** The tools' JSON per tools array: the registry hands out the same array until its tools change. */
const toolsJsonCache = new WeakMap<readonly ChatCompletionTool[], string>();

function toolsJson(params: { tools: readonly ChatCompletionTool[] }): string {
  let json = toolsJsonCache.get(params.tools);
  if (json === undefined) {
    json = JSON.stringify(params.tools);
    toolsJsonCache.set(params.tools, json);
  }
  return json;
}

/** The text of a message's content (text parts joined; an image part counts as a fixed-size placeholder). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const part of content as unknown[]) {
    if (typeof part !== 'object' || part === null) continue;
    const record = part as Record<string, unknown>;
    if (typeof record['text'] === 'string') parts.push(record['text']);
    else if (typeof record['refusal'] === 'string') parts.push(record['refusal']);
  }
  return parts.join('\n');
}

/** How many image parts a message's content holds. */
function imageParts(content: unknown): number {
  if (!Array.isArray(content)) return 0;
  return (content as unknown[]).filter((part) => typeof part === 'object' && part !== null && (part as Record<string, unknown>)['type'] === 'image_url').length;
}

/** Tokens of one message: framing, role, name, content, and each tool call's name and arguments. */
function messageTokens(params: { message: ChatCompletionMessageParam; encoding: CountMethod; cache: TokenCountCache }): number {
  const { message, encoding, cache } = params;
  const count = (text: string): number => cache.count({ text, encoding });
  let total = TOKENS_PER_MESSAGE + count(message.role) + count(contentText(message.content)) + IMAGE_PART_TOKENS * imageParts(message.content);
  if ('name' in message && typeof message.name === 'string') total += count(message.name) + 1;
  if (message.role === 'tool') total += count(message.tool_call_id);
  if (message.role === 'assistant' && message.tool_calls) {
    for (const call of message.tool_calls) {
      if (call.type !== 'function') continue;
      total += TOKENS_PER_TOOL_CALL + count(call.function.name) + count(call.function.arguments);
    }
  }
  return total;
}

/**
 * Estimated prompt tokens of a chat.completions request before it is sent: the messages (roles, content, tool
 * calls and their arguments, tool results) plus the tools' JSON. Exact tokenizer for OpenAI model names (see
 * encodingFor), a conservative bytes-per-token ratio for the rest; `method` counts another way (the ratio, or
 * the UTF-8 bytes as an upper bound). Raw: not corrected by reported usage (TokenMeter does that).
 */
export function estimatePromptTokens(params: { request: PromptRequest; cache?: TokenCountCache; method?: CountMethod }): number {
  const { request } = params;
  const cache = params.cache ?? sharedCache;
  const encoding = params.method ?? encodingFor({ model: request.model });
  let total = REPLY_PRIMING_TOKENS;
  for (const message of request.messages) total += messageTokens({ message, encoding, cache });
  if (request.tools !== undefined && request.tools.length > 0) {
    // The tool schemas barely change between calls: one cached count of their JSON.
    total += TOOLS_OVERHEAD_TOKENS + cache.count({ text: toolsJson({ tools: request.tools }), encoding });
  }
  return total;
}
