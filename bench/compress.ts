// Compression of a long history (issue 12): time without the model call and the request size after, 200 messages, ~150k tokens.
import { performance } from 'node:perf_hooks';
import { countTokens as countTextTokens } from 'gpt-tokenizer';
import { compressHistory, type CompressResult, type CountTokens } from '../src/agent/compress/index.js';
import type { ChatMessage, ChatToolCall } from '../src/agent/messages.js';
import { isMain } from '../src/util/is-main.js';
import { percentile } from './stats.js';
import { Prng } from '../test/helpers/fuzz.js';

/** The goal for one compression without the model call, in milliseconds. */
export const compressGoalMs = 50;

/** Figures of one bench run. */
export interface CompressBenchFigures {
  readonly messages: number;
  readonly tokens: number;
  readonly threshold: number;
  /** Counting every message once with an empty cache (the first compression of a process). */
  readonly coldMs: number;
  /** Per run with the per-message cache warm (the gateway's case: messages were counted as they arrived). */
  readonly warmMs: readonly number[];
  /** Forced runs through step 3 (an instant summariser), cache warm. */
  readonly forcedMs: readonly number[];
  readonly plain: CompressResult;
  readonly forced: CompressResult;
}

/** A seeded PRNG (mulberry32, the tests' Prng). */
function rng(seed: number): () => number {
  const prng = new Prng({ seed });
  return () => prng.next();
}

const words = ['const', 'return', 'await', 'function', 'import', 'export', 'interface', 'string', 'number', 'params', 'messages', 'session', 'config', 'error', 'result', 'value', 'index', 'token', 'store', 'agent', 'the', 'a', 'is', 'to', 'of', 'and', 'when', 'file', 'line', 'test'];

/** Code-like or log-like text of about `lines` lines. */
function body(random: () => number, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const n = 3 + Math.floor(random() * 9);
    const line: string[] = [];
    for (let w = 0; w < n; w++) line.push(words[Math.floor(random() * words.length)] ?? 'x');
    out.push(`${'  '.repeat(Math.floor(random() * 3))}${line.join(' ')}${random() < 0.3 ? `(${Math.floor(random() * 1000)});` : ''}`);
  }
  return out.join('\n');
}

/** A 200-message history: user requests, assistant tool rounds with long tool results (files, command output), replies. */
export function benchHistory(params: { messages: number; seed: number }): ChatMessage[] {
  const random = rng(params.seed);
  const messages: ChatMessage[] = [];
  let id = 0;
  while (messages.length < params.messages) {
    messages.push({ role: 'user', content: `Task step ${messages.length}: ${body(random, 2)}` });
    const rounds = 1 + Math.floor(random() * 3);
    for (let r = 0; r < rounds && messages.length < params.messages - 3; r++) {
      const calls: ChatToolCall[] = Array.from({ length: 1 + Math.floor(random() * 2) }, () => ({
        id: `call_${id++}`,
        type: 'function',
        function: { name: random() < 0.5 ? 'read_file' : 'terminal', arguments: JSON.stringify({ path: `src/module${id}.ts`, command: 'npm test' }) },
      }));
      messages.push({ role: 'assistant', content: random() < 0.5 ? null : 'Checking that.', tool_calls: calls });
      for (const call of calls) messages.push({ role: 'tool', tool_call_id: call.id, name: call.function.name, content: body(random, 60 + Math.floor(random() * 260)) });
    }
    messages.push({ role: 'assistant', content: body(random, 3 + Math.floor(random() * 10)) });
  }
  return messages.slice(0, params.messages);
}

/** gpt-tokenizer's count for a message (content, tool call names and arguments, 4 tokens of framing), cached per message object. */
export function cachedCounter(): { countTokens: CountTokens; cache: WeakMap<ChatMessage, number> } {
  const cache = new WeakMap<ChatMessage, number>();
  const countTokens: CountTokens = (message) => {
    const hit = cache.get(message);
    if (hit !== undefined) return hit;
    let text = message.content ?? '';
    if (message.role === 'assistant') for (const call of message.tool_calls ?? []) text += call.function.name + call.function.arguments;
    const tokens = 4 + countTextTokens(text);
    cache.set(message, tokens);
    return tokens;
  };
  return { countTokens, cache };
}

/** Compresses the bench history `runs` times (plain and forced through step 3) with an instant summariser. */
export async function runCompressBench(params: { runs: number }): Promise<CompressBenchFigures> {
  const history = benchHistory({ messages: 200, seed: 12 });
  const note = `## Task\n${body(rng(1), 150)}`;
  const summarise = async (): Promise<string> => note;
  const signal = new AbortController().signal;
  const threshold = 100_000; // 0.5 of a 200k context
  const { countTokens } = cachedCounter();
  const t0 = performance.now();
  const tokens = history.reduce((sum, m) => sum + countTokens(m), 0);
  let plain = await compressHistory({ messages: history, countTokens, threshold, summarise, signal });
  const coldMs = performance.now() - t0;
  const warmMs: number[] = [];
  const forcedMs: number[] = [];
  let forced = plain;
  for (let i = 0; i < params.runs; i++) {
    const a = performance.now();
    plain = await compressHistory({ messages: history, countTokens, threshold, summarise, signal });
    warmMs.push(performance.now() - a);
    const b = performance.now();
    forced = await compressHistory({ messages: history, countTokens, threshold, summarise, signal, force: true });
    forcedMs.push(performance.now() - b);
  }
  return { messages: history.length, tokens, threshold, coldMs, warmMs, forcedMs, plain, forced };
}

/** The bench's printed lines. */
export function compressLines(params: { figures: CompressBenchFigures }): string[] {
  const f = params.figures;
  const p = (values: readonly number[], at: number): string => percentile({ sorted: [...values].sort((x, y) => x - y), p: at }).toFixed(1);
  const within = (values: readonly number[]): string => (Math.max(...values) <= compressGoalMs ? 'within' : 'OVER');
  const size = (r: CompressResult): string => `${r.messages.length} messages, ~${r.stats.after.toLocaleString('en')} tokens`;
  return [
    `compression of ${f.messages} messages, ~${f.tokens.toLocaleString('en')} tokens (gpt-tokenizer), threshold ${f.threshold.toLocaleString('en')}, no model call; goal ≤ ${compressGoalMs} ms:`,
    `  first run, counting every message (cold cache): ${f.coldMs.toFixed(1)} ms`,
    `  step 1 (${f.plain.outcome}, ${f.plain.stats.clearedToolResults} tool results cleared): p50 ${p(f.warmMs, 50)} ms, max ${p(f.warmMs, 100)} ms over ${f.warmMs.length} runs — ${within(f.warmMs)}; after: ${size(f.plain)}`,
    `  forced through step 3 (${f.forced.outcome}, ${f.forced.stats.summarised} messages summarised): p50 ${p(f.forcedMs, 50)} ms, max ${p(f.forcedMs, 100)} ms — ${within(f.forcedMs)}; after: ${size(f.forced)}`,
  ];
}

if (isMain({ moduleUrl: import.meta.url })) {
  for (const line of compressLines({ figures: await runCompressBench({ runs: 20 }) })) console.log(line);
}
