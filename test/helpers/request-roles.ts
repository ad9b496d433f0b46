import type { CapturedRequest } from '../fakes/openai/server.js';

/** A recorded request's non-system messages as `role:content` lines (an assistant's tool calls as their names). */
export function roles(request: CapturedRequest | undefined): string[] {
  return (request?.body.messages ?? [])
    .filter((m) => m['role'] !== 'system')
    .map((m) => {
      const calls = m['tool_calls'] as { function: { name: string } }[] | undefined;
      return `${String(m['role'])}:${calls ? calls.map((c) => c.function.name).join(',') : String(m['content'])}`;
    });
}
