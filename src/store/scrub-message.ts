import type { NewMessage } from './types.js';

/**
 * A message as it may be stored: its text and its tool calls' arguments scrubbed of secrets, so the database,
 * its full-text index, `hermes sessions search` and the history sent back to the model never hold one.
 * Arguments that no longer parse as JSON after scrubbing are stored as `{}` (the call's result says what happened).
 */
export function scrubStoredMessage(params: { message: NewMessage; scrub: (text: string) => string }): NewMessage {
  const { message, scrub } = params;
  const toolCalls = message.toolCalls?.map((call) => ({ ...call, arguments: scrubArguments({ json: call.arguments, scrub }) })) ?? message.toolCalls;
  return { ...message, content: scrub(message.content), ...(toolCalls === undefined ? {} : { toolCalls }) };
}

/** Tool-call arguments (JSON text) with secrets scrubbed, still valid JSON. */
function scrubArguments(params: { json: string; scrub: (text: string) => string }): string {
  const scrubbed = params.scrub(params.json);
  if (scrubbed === params.json) return scrubbed;
  try {
    JSON.parse(scrubbed);
    return scrubbed;
  } catch {
    return '{}';
  }
}
