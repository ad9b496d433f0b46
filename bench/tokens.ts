// Prompt-token estimate of a long history: a 200-message, ~150k-token conversation (text, tool calls, tool results).
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { TokenCountCache } from '../src/agent/tokens/cache.js';
import { estimatePromptTokens, type PromptRequest } from '../src/agent/tokens/estimate.js';
import { isMain } from '../src/util/is-main.js';

/** The goal for estimating the whole history when its messages were counted before (the usual next call). */
export const warmGoalMs = 5;

/** One model's figures. */
export interface TokenBenchFigures {
  readonly model: string;
  readonly messages: number;
  readonly tokens: number;
  /** First estimate (every message counted by the tokenizer). */
  readonly coldMs: number;
  /** The same history again, p50 of 20 (all messages cached). */
  readonly warmMs: number;
  /** The history plus one new tool result, p50 of 20 (the next call of a turn). */
  readonly nextCallMs: number;
}

const WORDS = (
  'the agent reads a file and then writes a short summary of what changed in the project since yesterday ' +
  'configuration gateway session message token context window compression budget model endpoint request ' +
  'error retry timeout function argument result output directory path search query memory skill schedule ' +
  'because when after before while although however therefore instead also only never always often'
).split(' ');

/** Deterministic English-like text of about `words` words. */
function prose(params: { seed: number; words: number }): string {
  let state = params.seed * 2654435761 + 1;
  const out: string[] = [];
  for (let i = 0; i < params.words; i += 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out.push(WORDS[state % WORDS.length] ?? 'word');
    if (i % 14 === 13) out.push(`${state % 1000}.`);
  }
  return out.join(' ');
}

/** A conversation of `messages` messages: user and assistant text, every fourth assistant message a tool call. */
export function syntheticHistory(params: { messages: number; wordsPerMessage: number }): ChatCompletionMessageParam[] {
  const history: ChatCompletionMessageParam[] = [{ role: 'system', content: prose({ seed: 0, words: 1500 }) }];
  for (let i = 1; history.length < params.messages; i += 1) {
    history.push({ role: 'user', content: prose({ seed: i * 3, words: params.wordsPerMessage }) });
    if (i % 4 === 0) {
      const id = `call_${i}`;
      history.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path: `notes/${i}.md` }) } }] });
      history.push({ role: 'tool', tool_call_id: id, content: prose({ seed: i * 3 + 1, words: params.wordsPerMessage * 2 }) });
    }
    history.push({ role: 'assistant', content: prose({ seed: i * 3 + 2, words: params.wordsPerMessage }) });
  }
  return history.slice(0, params.messages);
}

const tools: ChatCompletionTool[] = [
  { type: 'function', function: { name: 'read_file', description: 'Reads a file of the workspace.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } },
];

function p50(run: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < 20; i += 1) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[10] ?? Number.NaN;
}

/** Times the estimate of a 200-message, ~150k-token history for one model name. */
export function runTokenBench(params: { model: string; messages?: number }): TokenBenchFigures {
  const messages = syntheticHistory({ messages: params.messages ?? 200, wordsPerMessage: 610 });
  const request: PromptRequest = { model: params.model, messages, tools };
  const cache = new TokenCountCache();
  const start = performance.now();
  const tokens = estimatePromptTokens({ request, cache });
  const coldMs = performance.now() - start;
  const warmMs = p50(() => estimatePromptTokens({ request, cache }));
  let n = 0;
  const nextCallMs = p50(() => {
    n += 1;
    const next = [...messages, { role: 'tool' as const, tool_call_id: `call_next_${n}`, content: prose({ seed: 10_000 + n, words: 300 }) }];
    estimatePromptTokens({ request: { ...request, messages: next }, cache });
  });
  return { model: params.model, messages: messages.length, tokens, coldMs, warmMs, nextCallMs };
}

/** The figures as printed lines. */
export function tokenBenchLines(params: { figures: readonly TokenBenchFigures[] }): string[] {
  return params.figures.map(
    (f) =>
      `token estimate, ${f.model}: ${f.messages} messages, ${f.tokens.toLocaleString('en-US')} tokens: first ${f.coldMs.toFixed(1)} ms, ` +
      `again ${f.warmMs.toFixed(2)} ms (goal ≤ ${warmGoalMs} ms), next call (+1 tool result) ${f.nextCallMs.toFixed(2)} ms`,
  );
}

/** Both paths: the tokenizer (gpt-4o, o200k) and the ratio for an unknown model. */
export function runTokenBenches(): TokenBenchFigures[] {
  return [runTokenBench({ model: 'gpt-4o' }), runTokenBench({ model: 'llama-3.1-70b' })];
}

if (isMain({ moduleUrl: import.meta.url })) {
  for (const line of tokenBenchLines({ figures: runTokenBenches() })) console.log(line);
}
