import { clearedToolOutput } from '../compress/clear-tool-results.js';
import { isSummaryMessage } from '../compress/summary-message.js';

/** One history entry as the review reads it (a StoredMessage fits). */
export interface TranscriptMessage {
  readonly role: 'system' | 'user' | 'assistant' | 'tool';
  readonly content: string;
  readonly toolCalls: readonly { readonly id: string; readonly name: string; readonly arguments: string }[] | null;
  readonly toolCallId: string | null;
}

/** Most characters of one tool call's arguments or result shown to the review. */
const MAX_PART_CHARS = 600;

/** The terminal tool's last line for a command that did not end well (exit code not 0, timeout, killed, interrupted). */
const BAD_STATUS = /\[(?:exit code: (?!0\])[^\]]*|timed out[^\]]*|killed by[^\]]*|interrupted by[^\]]*)\]\s*$/;

/**
 * Whether a tool result reports a failure: the registry and scheduler turn every failed call into a result starting
 * "Error:" (unknown tool, bad arguments, a thrown ToolError) or "Interrupted:"; the terminal ends with its status line.
 */
export function toolResultFailed(params: { content: string }): boolean {
  const text = params.content.trimStart();
  return text.startsWith('Error:') || text.startsWith('Interrupted:') || BAD_STATUS.test(params.content);
}

function clip(text: string): string {
  const flat = text.trim();
  return flat.length <= MAX_PART_CHARS ? flat : `${flat.slice(0, MAX_PART_CHARS)}… (${flat.length - MAX_PART_CHARS} more characters)`;
}

/** One block of text per message: its role, its text, and each tool call with its arguments, outcome and result. */
function blocks(params: { messages: readonly TranscriptMessage[] }): string[] {
  const results = new Map<string, string>();
  for (const m of params.messages) if (m.role === 'tool' && m.toolCallId !== null) results.set(m.toolCallId, m.content);
  const out: string[] = [];
  for (const m of params.messages) {
    if (m.role === 'system' || m.role === 'tool') continue;
    const lines: string[] = [];
    // A compression's hand-off note is not something the user said: labelled as what it is.
    const label = m.role === 'user' && isSummaryMessage({ role: 'user', content: m.content }) ? 'summary of the earlier conversation' : m.role;
    if (m.content.trim() !== '') lines.push(`[${label}] ${m.content.trim()}`);
    for (const call of m.toolCalls ?? []) {
      const result = results.get(call.id);
      // A result a compression cleared says nothing about how the call went: marked so, never "succeeded".
      const mark = result === undefined ? 'no result' : result.trim() === clearedToolOutput ? 'outcome unknown' : toolResultFailed({ content: result }) ? 'failed' : 'succeeded';
      lines.push(`[tool call ${call.name}] [${mark}] arguments: ${clip(call.arguments)}`);
      if (result !== undefined) lines.push(`  result: ${clip(result)}`);
    }
    if (lines.length > 0) out.push(lines.join('\n'));
  }
  return out;
}

/**
 * The conversation as the review reads it: the newest messages that fit in `maxTokens` (counted by `countTokens`),
 * oldest first, every tool call marked succeeded or failed. Says so when older messages were left out.
 */
export function reviewTranscript(params: { messages: readonly TranscriptMessage[]; maxTokens: number; countTokens: (text: string) => number }): string {
  const all = blocks({ messages: params.messages });
  // Every counter in use gives at most one token per UTF-8 byte: a transcript whose bytes fit is kept whole uncounted.
  let bytes = 0;
  for (const block of all) bytes += Buffer.byteLength(block, 'utf8') + 2;
  if (bytes <= params.maxTokens) return all.join('\n\n');
  const kept: string[] = [];
  let used = 0;
  for (let i = all.length - 1; i >= 0; i--) {
    const block = all[i] as string;
    const cost = params.countTokens(block) + 2;
    if (used + cost > params.maxTokens && kept.length > 0) break;
    kept.unshift(used + cost > params.maxTokens ? block.slice(-Math.max(0, Math.floor(params.maxTokens * 3))) : block);
    used += cost;
  }
  const omitted = all.length - kept.length;
  const head = omitted > 0 ? [`(${omitted} older messages left out)`] : [];
  return [...head, ...kept].join('\n\n');
}
