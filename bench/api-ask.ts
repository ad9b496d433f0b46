// One message through the gateway child's HTTP API: a streamed chat completion in a session of its own.
import type { ApiGatewayChild } from './api-child.js';

/** The session header of the API platform: each value is a chat (and a session) of its own. */
const SESSION_HEADER = 'x-hermes-session';

/** How one streamed request went, in ms since it was sent. */
export interface AskTimes {
  /** The answer's headers: the gateway journaled the message (accepted). */
  readonly acceptedMs: number;
  /** The first reply text: the gateway's first send of the reply (what "accepted → first send" is in-process). */
  readonly firstTextMs: number;
  /** The turn ended (`[DONE]`): the final edit, which the API's 250 ms edit pacing holds back, is in. */
  readonly doneMs: Promise<number>;
}

/** Whether a server-sent event carries reply text (a `delta.content` that is not empty). */
function hasText(params: { event: string }): boolean {
  const data = params.event.split('\n').find((line) => line.startsWith('data: '));
  if (data === undefined || data === 'data: [DONE]') return false;
  const chunk = JSON.parse(data.slice('data: '.length)) as { choices?: { delta?: { content?: string } }[]; error?: unknown };
  if (chunk.error !== undefined) throw new Error(`the gateway's stream ended in an error: ${data.slice(0, 300)}`);
  return (chunk.choices?.[0]?.delta?.content ?? '') !== '';
}

/**
 * POSTs one streamed chat completion with `text` to `session`; resolves at the first reply text, with `doneMs` settling
 * once the stream ended (read it, or the connection stays open). Throws on a non-200 answer or a stream without text.
 */
export async function ask(params: { child: Pick<ApiGatewayChild, 'completionsUrl' | 'authorization'>; session: string; text: string }): Promise<AskTimes> {
  const t0 = performance.now();
  const response = await fetch(params.child.completionsUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: params.child.authorization, [SESSION_HEADER]: params.session },
    body: JSON.stringify({ model: 'hermes-bench', messages: [{ role: 'user', content: params.text }], stream: true }),
  });
  if (response.status !== 200 || response.body === null) throw new Error(`the gateway answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
  const acceptedMs = performance.now() - t0;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let firstTextMs: number | undefined;
  while (firstTextMs === undefined) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the gateway's stream ended without reply text: ${buffer.slice(0, 300)}`);
    buffer += value;
    const events = buffer.split('\n\n');
    buffer = events.pop() ?? '';
    if (events.some((event) => hasText({ event }))) firstTextMs = performance.now() - t0;
  }
  const doneMs = (async () => {
    for (;;) {
      const { done } = await reader.read();
      if (done) return performance.now() - t0;
    }
  })();
  return { acceptedMs, firstTextMs, doneMs };
}
