import type { AuxiliaryRequest } from '../../../../src/agent/auxiliary/client.js';
import type { ChatMessage, ChatToolCall } from '../../../../src/agent/messages.js';
import { Prng } from '../../../helpers/fuzz.js';

/** A deterministic counter for tests: 4 tokens per message plus a token per 4 characters of text and call arguments. */
export function charTokens(message: ChatMessage): number {
  let chars = message.content?.length ?? 0;
  if (message.role === 'assistant') for (const call of message.tool_calls ?? []) chars += call.function.name.length + call.function.arguments.length;
  return 4 + Math.ceil(chars / 4);
}

/** A summariser that records every request and answers from `answer` (or throws what it throws). */
export function fakeSummariser(answer: (request: AuxiliaryRequest, index: number) => string = () => 'NOTE: the task so far.'): {
  summarise: (request: AuxiliaryRequest) => Promise<string>;
  requests: AuxiliaryRequest[];
} {
  const requests: AuxiliaryRequest[] = [];
  return {
    requests,
    summarise: async (request) => {
      requests.push(request);
      return answer(request, requests.length - 1);
    },
  };
}

/** A small seeded PRNG (mulberry32, the fuzz helpers' Prng), so generated histories are reproducible from the seed. */
export function rng(seed: number): () => number {
  const prng = new Prng({ seed });
  return () => prng.next();
}

/** Words of `n` characters or so. */
export function text(params: { label: string; chars: number }): string {
  const unit = `${params.label} lorem ipsum dolor sit amet `;
  return unit.repeat(Math.max(1, Math.ceil(params.chars / unit.length))).slice(0, Math.max(params.chars, params.label.length));
}

/**
 * A valid history of `turns` user turns: each turn a user message, then 0-3 assistant messages with 1-3 tool calls
 * each (every call answered by a tool result, long or short), then an assistant text reply.
 */
export function generateHistory(params: { seed: number; turns: number; startsWith?: ChatMessage }): ChatMessage[] {
  const random = rng(params.seed);
  const pick = (n: number): number => Math.floor(random() * n);
  const messages: ChatMessage[] = params.startsWith ? [params.startsWith] : [];
  let callId = 0;
  for (let turn = 0; turn < params.turns; turn++) {
    messages.push({ role: 'user', content: text({ label: `u${turn}`, chars: 20 + pick(400) }) });
    const rounds = pick(4);
    for (let r = 0; r < rounds; r++) {
      const calls: ChatToolCall[] = Array.from({ length: 1 + pick(3) }, () => ({
        id: `call_${params.seed}_${callId++}`,
        type: 'function',
        function: { name: 'read_file', arguments: JSON.stringify({ path: `/src/f${pick(50)}.ts` }) },
      }));
      messages.push({ role: 'assistant', content: pick(2) === 0 ? null : 'Let me look.', tool_calls: calls });
      for (const call of calls) {
        messages.push({ role: 'tool', tool_call_id: call.id, name: 'read_file', content: text({ label: `out ${call.id}`, chars: pick(3) === 0 ? 30 : 200 + pick(6000) }) });
      }
    }
    messages.push({ role: 'assistant', content: text({ label: `a${turn}`, chars: 20 + pick(800) }) });
  }
  return messages;
}

/** Estimated tokens of a list with `charTokens`. */
export function total(messages: readonly ChatMessage[]): number {
  return messages.reduce((sum, m) => sum + charTokens(m), 0);
}
