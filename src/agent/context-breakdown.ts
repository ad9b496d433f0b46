import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { SessionPrompt } from '../store/types.js';
import { isSummaryMessage } from './compress/summary-message.js';
import { toOpenAIMessages, type ChatMessage } from './messages.js';
import type { PromptRequest } from './tokens/estimate.js';

/** What the next request of a session is made of. */
export interface ContextParts {
  readonly model: string;
  /** The session's system prompt (its layers' sizes in characters). */
  readonly prompt: SessionPrompt;
  /** The `tools` the request sends. */
  readonly tools: readonly ChatCompletionFunctionTool[];
  /** The history the request sends (a compression's summary among it). */
  readonly history: readonly ChatMessage[];
  /** The model's context length. */
  readonly contextTokens: number;
  /** A request's prompt tokens (the gateway's meter: corrected by what the endpoint reported). */
  readonly count: (request: PromptRequest) => number;
}

/**
 * `/context` and `hermes prompt show --context`: the next request's size by part — the system prompt and each of its
 * layers, each tool's schema (largest first), the compression summary, the rest of the history — in tokens and as a
 * share of the model's context. Layers are shares of the prompt's count by their characters.
 */
export function contextBreakdownLines(params: ContextParts): string[] {
  const { model, prompt, tools, history, count, contextTokens } = params;
  const empty = count({ model, messages: [] });
  const of = (request: Omit<PromptRequest, 'model'>): number => Math.max(0, count({ model, ...request }) - empty);
  const total = count({ model, messages: toOpenAIMessages({ messages: [{ role: 'system', content: prompt.text }, ...history] }), ...(tools.length > 0 ? { tools } : {}) });
  const n = (value: number): string => value.toLocaleString('en-US');
  const share = (value: number): string => `${((value / contextTokens) * 100).toFixed(1)}%`;
  const rows: { label: string; tokens: number; indent: number }[] = [];
  const system = of({ messages: [{ role: 'system', content: prompt.text }] });
  const chars = Math.max(1, prompt.text.length);
  rows.push({ label: 'system prompt', tokens: system, indent: 2 });
  for (const layer of prompt.layers) if (layer.chars > 0) rows.push({ label: layer.name, tokens: Math.round((system * layer.chars) / chars), indent: 4 });
  rows.push({ label: `tools (${tools.length})`, tokens: of({ messages: [], ...(tools.length > 0 ? { tools } : {}) }), indent: 2 });
  const perTool = tools.map((tool) => ({ label: tool.function.name, tokens: of({ messages: [], tools: [tool] }), indent: 4 })).sort((a, b) => b.tokens - a.tokens);
  rows.push(...perTool);
  const summary = history.filter((message) => isSummaryMessage(message));
  const rest = history.filter((message) => !isSummaryMessage(message));
  if (summary.length > 0) rows.push({ label: 'compression summary', tokens: of({ messages: toOpenAIMessages({ messages: summary }) }), indent: 2 });
  rows.push({ label: `history (${rest.length} messages)`, tokens: of({ messages: toOpenAIMessages({ messages: rest }) }), indent: 2 });
  const width = Math.max(...rows.map((row) => row.indent + row.label.length));
  const lines = [`Next request: ~${n(total)} of ${n(contextTokens)} tokens (${share(total)} of the context), estimated`];
  for (const row of rows) lines.push(`${' '.repeat(row.indent)}${row.label.padEnd(width - row.indent)}  ${n(row.tokens).padStart(7)}  ${share(row.tokens).padStart(6)}`);
  return lines;
}
