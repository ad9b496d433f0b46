import { CHILD_SYSTEM_PROMPT } from '../../src/gateway/delegate/child-prompt.js';
import type { CapturedRequest, ScriptedReply } from '../fakes/openai/server.js';

/** The tools a delegate_task child must never be offered. */
export const BLOCKED_FOR_CHILDREN = ['delegate_task', 'clarify', 'memory', 'send_message', 'execute_code'];

/** The goal a child request works on ("Task: <goal>" is its first user message), or undefined for the parent's requests. */
export function childGoal(params: { request: CapturedRequest }): string | undefined {
  const messages = params.request.body.messages ?? [];
  if (messages[0]?.['content'] !== CHILD_SYSTEM_PROMPT) return undefined;
  const first = String(messages[1]?.['content'] ?? '');
  return first.replace(/^Task: /, '').split('\n')[0];
}

/** How many assistant messages a request carries (0: the conversation's first model call). */
export function roundOf(params: { request: CapturedRequest }): number {
  return (params.request.body.messages ?? []).filter((m) => m['role'] === 'assistant').length;
}

/** The names of the tools a request offered. */
export function offeredTools(params: { request: CapturedRequest }): string[] {
  return (params.request.body.tools ?? []).map((t) => String((t['function'] as { name?: string } | undefined)?.name));
}

/** A responder that answers the parent's and the children's requests by who asks and in which round. */
export function delegateResponder(params: {
  parent: (round: number, request: CapturedRequest) => ScriptedReply;
  child: (goal: string, round: number, request: CapturedRequest) => ScriptedReply;
}): (request: CapturedRequest) => ScriptedReply {
  return (request) => {
    const goal = childGoal({ request });
    const round = roundOf({ request });
    return goal === undefined ? params.parent(round, request) : params.child(goal, round, request);
  };
}

/** The child requests the fake received, grouped by goal, in order. */
export function childRequests(params: { requests: readonly CapturedRequest[] }): Map<string, CapturedRequest[]> {
  const out = new Map<string, CapturedRequest[]>();
  for (const request of params.requests) {
    const goal = childGoal({ request });
    if (goal === undefined) continue;
    out.set(goal, [...(out.get(goal) ?? []), request]);
  }
  return out;
}

/** The parent's requests the fake received, in order. */
export function parentRequests(params: { requests: readonly CapturedRequest[] }): CapturedRequest[] {
  return params.requests.filter((request) => childGoal({ request }) === undefined);
}

/** The most child conversations in flight at once (from each one's first request to its last answer's end). */
export function mostAtOnce(params: { requests: readonly CapturedRequest[] }): number {
  const spans = [...childRequests(params).values()].map((list) => ({ start: list[0]?.time ?? 0, end: Math.max(...list.map((r) => r.ended ?? Number.MAX_SAFE_INTEGER)) }));
  return Math.max(0, ...spans.map((s) => spans.filter((o) => o.start <= s.start && s.start < o.end).length));
}
