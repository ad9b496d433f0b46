/**
 * Reading a POST /v1/chat/completions body. Only the LAST message is read as input (it must be the user's): the
 * gateway keeps the session's history itself, so the earlier messages (the client's copy of it) are checked for shape
 * and otherwise ignored. Fields the agent decides itself (tools, temperature, max_tokens, ...) are ignored too.
 */

/** A request as the adapter uses it. */
export interface ChatRequest {
  /** The new user message's text (text parts joined by blank lines). */
  readonly text: string;
  readonly stream: boolean;
  /** The request's `user` field, when given: names the session (unless X-Hermes-Session does). */
  readonly user?: string;
}

/** Why a body was refused: `param` names the field, as OpenAI's errors do. */
export interface RequestProblem {
  readonly param: string | null;
  readonly message: string;
}

/** Longest `user` or X-Hermes-Session value taken. */
export const MAX_SESSION_NAME = 200;

/** Whether `value` is a usable session name (1-200 characters, no control characters); else the problem with it. */
export function sessionNameProblem(params: { value: string }): string | undefined {
  const { value } = params;
  if (value.trim() === '') return 'must not be empty';
  if (value.length > MAX_SESSION_NAME) return `must be at most ${MAX_SESSION_NAME} characters`;
  for (const char of value) {
    const code = char.charCodeAt(0);
    if (code < 0x20 || code === 0x7f) return 'must not contain control characters';
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The text of a message's content: a string, or an array of text parts; a problem for anything else. */
function contentText(params: { content: unknown; at: string }): { text: string } | RequestProblem {
  const { content, at } = params;
  if (typeof content === 'string') return { text: content };
  if (!Array.isArray(content)) return { param: at, message: `${at} must be a string or an array of content parts` };
  const texts: string[] = [];
  for (const [index, part] of content.entries()) {
    const here = `${at}[${index}]`;
    if (!isRecord(part)) return { param: here, message: `${here} must be an object` };
    if (part['type'] !== 'text') {
      return { param: `${here}.type`, message: `${here}.type must be "text": this API takes text only (images, audio and files are not supported)` };
    }
    if (typeof part['text'] !== 'string') return { param: `${here}.text`, message: `${here}.text must be a string` };
    texts.push(part['text']);
  }
  return { text: texts.join('\n\n') };
}

/** Reads a parsed JSON body; `maxInputChars` bounds the new message. */
export function readChatRequest(params: { body: unknown; maxInputChars: number }): ChatRequest | RequestProblem {
  const { body } = params;
  if (!isRecord(body)) return { param: null, message: 'the request body must be a JSON object' };
  if (body['model'] !== undefined && typeof body['model'] !== 'string') return { param: 'model', message: 'model must be a string' };
  const stream = body['stream'];
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') return { param: 'stream', message: 'stream must be a boolean' };
  const n = body['n'];
  if (n !== undefined && n !== null && n !== 1) return { param: 'n', message: 'n must be 1: the agent gives one answer' };
  const user = body['user'];
  if (user !== undefined && user !== null) {
    if (typeof user !== 'string') return { param: 'user', message: 'user must be a string' };
    const problem = sessionNameProblem({ value: user });
    if (problem !== undefined) return { param: 'user', message: `user ${problem}` };
  }
  const messages = body['messages'];
  if (messages === undefined || messages === null) return { param: 'messages', message: 'messages is required: an array ending with the user\'s new message' };
  if (!Array.isArray(messages)) return { param: 'messages', message: 'messages must be an array' };
  if (messages.length === 0) return { param: 'messages', message: 'messages must not be empty: it ends with the user\'s new message' };
  for (const [index, message] of messages.entries()) {
    if (!isRecord(message)) return { param: `messages[${index}]`, message: `messages[${index}] must be an object` };
    if (typeof message['role'] !== 'string') return { param: `messages[${index}].role`, message: `messages[${index}].role must be a string` };
  }
  const lastIndex = messages.length - 1;
  const last = messages[lastIndex] as Record<string, unknown>;
  if (last['role'] !== 'user') {
    return { param: `messages[${lastIndex}].role`, message: `messages[${lastIndex}].role must be "user": the last message is the new input (got "${String(last['role']).slice(0, 40)}")` };
  }
  const at = `messages[${lastIndex}].content`;
  const content = contentText({ content: last['content'], at });
  if ('param' in content) return content;
  if (content.text.trim() === '') return { param: at, message: `${at} must not be empty` };
  if (content.text.length > params.maxInputChars) return { param: at, message: `${at} is ${content.text.length} characters; at most ${params.maxInputChars} are taken (platforms.api.max_input_chars)` };
  return { text: content.text, stream: stream === true, ...(typeof user === 'string' ? { user } : {}) };
}
