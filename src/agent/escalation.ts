import type { ToolResult } from '../tools/registry.js';
import type { ToolDefinition } from '../tools/tool.js';

/**
 * What a failure is, for telling repeats apart: its first line with the parts that change between tries (quoted text,
 * paths, file and host names, numbers) made alike, so "notes.md does not exist" and "todo.md does not exist" are one kind.
 */
function failureKind(params: { text: string }): string {
  const first = params.text.split('\n').find((line) => line.trim() !== '') ?? '';
  return first
    .replace(/^Error:\s*/i, '')
    .replace(/(["'`]).*?\1/g, '…')
    .replace(/(?:\/[\w.@+-]+)+\/?/g, '/…')
    .replace(/[\w@+-]*[./\\:][\w.@+/\\:-]*\w/g, '…')
    .replace(/\d+/g, '#')
    .trim()
    .slice(0, 120)
    .toLowerCase();
}

/** A call's arguments as sent (undefined when they are not JSON: such a call failed as an error already). */
function parsed(params: { json: string }): unknown {
  try {
    return JSON.parse(params.json) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * GenericAgent's three-step failure escalation, per turn: the same tool failing the same way (an error, or a result its
 * tool reads as failed: a command's non-zero exit) is answered once as it is (the model fixes the call), one before
 * the limit with a line telling it to change its approach, and from the limit on with a line telling it to stop
 * retrying and ask the owner with `clarify` (or, where clarify is not offered, to say what blocks it).
 */
export class FailureLedger {
  private readonly askAfter: number;
  private readonly canAsk: boolean;
  private readonly counts = new Map<string, number>();

  constructor(params: { askAfter: number; canAsk: boolean }) {
    this.askAfter = params.askAfter;
    this.canAsk = params.canAsk;
  }

  /** The line to add to this result (undefined: none), after counting it when it is a failure. */
  note(params: { name: string; args: string; result: ToolResult; tool: ToolDefinition | undefined }): string | undefined {
    if (this.askAfter <= 0) return undefined;
    const { result } = params;
    const failed = result.isError ? result.content : params.tool?.failedAs?.({ content: result.content, args: parsed({ json: params.args }) });
    if (failed === undefined) return undefined;
    const kind = failureKind({ text: failed });
    const key = `${params.name}\u0000${kind}`;
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    if (count >= this.askAfter) {
      const ask = this.canAsk
        ? 'Ask the owner with the clarify tool what to do, saying what you tried and what failed.'
        : 'Say in your answer what you tried, what failed and what you need.';
      return `[${params.name} has failed the same way ${count} times in this turn: stop retrying it. ${ask}]`;
    }
    if (count === this.askAfter - 1 && count >= 2) return `[${params.name} failed the same way twice: do not repeat the call; change your approach.]`;
    return undefined;
  }
}
