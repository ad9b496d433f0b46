import type { ChatMessage } from '../../agent/messages.js';
import type { ToolProgressLook } from '../../tools/tool.js';
import { toolProgressLine } from './tool-progress-lines.js';

/** How much tool activity the user sees (config `display.tool_progress`). */
export type ToolProgressMode = 'all' | 'new' | 'off';

/** Lines a preview keeps: a long tool loop shows its latest calls, never a preview past the platform's limit. */
export const MAX_PROGRESS_LINES = 6;

/** Where the lines go: the turn's streamed reply (see StreamDelivery.progress). */
export interface ProgressSink {
  /** The lines to show now (oldest first) and the line this call started, if it started one. */
  progress(params: { lines: readonly string[]; added?: string }): void;
}

/** One shown line: the tool it stands for and how many calls in a row it covers. */
interface Shown {
  readonly tool: string;
  readonly line: string;
  count: number;
}

/**
 * A turn's tool activity as lines for the user. `all`: a line per call. `new`: a line when the tool differs from
 * the previous call's; repeated calls of one tool share the first call's line, which counts them ("⚙ terminal: ls ×3"),
 * so the line stays put and still shows the work going on. `off`: nothing.
 */
export class ToolProgress {
  private readonly mode: ToolProgressMode;
  private readonly scrub: (text: string) => string;
  private readonly sink: ProgressSink;
  private readonly looks: (name: string) => ToolProgressLook | undefined;
  private readonly maxLines: number;
  private shown: Shown[] = [];

  /** `looks`: how a tool's calls look (its definition's `progress`), by the name the model called. */
  constructor(params: { mode: ToolProgressMode; scrub: (text: string) => string; sink: ProgressSink; looks: (name: string) => ToolProgressLook | undefined; maxLines?: number }) {
    this.mode = params.mode;
    this.scrub = params.scrub;
    this.sink = params.sink;
    this.looks = params.looks;
    this.maxLines = Math.max(1, params.maxLines ?? MAX_PROGRESS_LINES);
  }

  /** Looks at a message the agent added: an assistant message's tool calls become lines (the agent runs them next). */
  observe(params: { message: ChatMessage }): void {
    const { message } = params;
    if (this.mode === 'off' || message.role !== 'assistant') return;
    for (const call of message.tool_calls ?? []) this.call({ name: call.function.name, arguments: call.function.arguments });
  }

  /** Records one tool call and tells the sink what to show. */
  call(params: { name: string; arguments: string }): void {
    if (this.mode === 'off') return;
    this.show({ tool: params.name, line: () => toolProgressLine({ ...params, look: this.looks(params.name), scrub: this.scrub }) });
  }

  /** Records one tool call of a delegate_task child (`child` e.g. "child 2/3"): "↳ child 2/3: read_file notes.md". */
  childCall(params: { child: string; name: string; arguments: string }): void {
    if (this.mode === 'off') return;
    const line = (): string => `↳ ${params.child}: ${toolProgressLine({ name: params.name, arguments: params.arguments, look: this.looks(params.name), scrub: this.scrub, emoji: false })}`;
    this.show({ tool: `${params.child}\u0000${params.name}`, line });
  }

  private show(params: { tool: string; line: () => string }): void {
    const last = this.shown.at(-1);
    if (this.mode === 'new' && last !== undefined && last.tool === params.tool) {
      last.count += 1;
      this.sink.progress({ lines: this.lines() });
      return;
    }
    const line = params.line();
    this.shown.push({ tool: params.tool, line, count: 1 });
    if (this.shown.length > this.maxLines) this.shown = this.shown.slice(-this.maxLines);
    this.sink.progress({ lines: this.lines(), added: line });
  }

  /** The lines shown now, oldest first. */
  lines(): string[] {
    return this.shown.map((s) => (s.count > 1 ? `${s.line} ×${s.count}` : s.line));
  }
}
