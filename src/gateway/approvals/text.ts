import type { ApprovalMatch } from '../../tools/capabilities.js';
import type { OutboundChoice } from '../../core/adapter.js';

/** How the owner answered: allow this once, for the rest of the session, always (a rule), or deny. */
export type ApprovalAnswer = 'once' | 'session' | 'always' | 'deny';

/** Longest command shown in a question (the rest is cut with an ellipsis). */
const MAX_SHOWN_CHARS = 300;

/** The command as the owner sees it: scrubbed (already), on one line per line, shortened, safe inside a code span. */
export function shownCommand(params: { command: string }): string {
  const flat = params.command.replace(/`/g, "'").trim();
  return flat.length > MAX_SHOWN_CHARS ? `${flat.slice(0, MAX_SHOWN_CHARS)}…` : flat;
}

/** A duration for people: "5 min", "90 s", "2 h". */
export function durationText(params: { ms: number }): string {
  const s = Math.round(params.ms / 1000);
  if (s < 120) return `${s} s`;
  const min = Math.round(s / 60);
  return min < 120 ? `${min} min` : `${Math.round(min / 60)} h`;
}

/** Longest matched part shown after its reason (when the command itself is shortened). */
const MAX_SEGMENT_CHARS = 200;

/**
 * The question's head: what wants to run and why it needs approval. When the command is too long to show whole,
 * each reason also shows the part that matched, so what is dangerous is never in the part cut off.
 */
export function questionHead(params: { tool: string; command: string; matches: readonly ApprovalMatch[] }): string {
  const cut = params.command.trim().length > MAX_SHOWN_CHARS;
  const part = (segment: string | undefined): string => {
    if (!cut || segment === undefined) return '';
    const flat = segment.replace(/`/g, "'").trim();
    return `: \`${flat.length > MAX_SEGMENT_CHARS ? `${flat.slice(0, MAX_SEGMENT_CHARS)}…` : flat}\``;
  };
  const reasons = params.matches.map((m) => `• ${m.description}${part(m.segment)}`).join('\n');
  return `⚠️ The agent wants to run a dangerous command (${params.tool}):\n\`${shownCommand(params)}\`\n${reasons}`;
}

/** The question: its head, then how to answer (with buttons: a short line; without: the commands). */
export function questionText(params: { head: string; buttons: boolean; timeoutMs: number }): string {
  const wait = `No answer in ${durationText({ ms: params.timeoutMs })} means no.`;
  if (params.buttons) return `${params.head}\n\nOnly the owner can answer. ${wait}`;
  return `${params.head}\n\nReply /approve (once), /approve session (for this conversation), /approve always (this kind of command from now on) or /deny. ${wait}`;
}

/** The four buttons of a question. */
export function questionChoices(params: { requestId: string }): OutboundChoice[] {
  const id = (answer: ApprovalAnswer): string => `ap:${params.requestId}:${answer}`;
  return [
    { id: id('once'), label: 'Allow once' },
    { id: id('session'), label: 'Allow for this session' },
    { id: id('always'), label: 'Always allow' },
    { id: id('deny'), label: 'Deny' },
  ];
}

/** The line the question message ends with once decided. */
export function answerLine(params: { answer: ApprovalAnswer; by: string }): string {
  switch (params.answer) {
    case 'once':
      return `✅ Allowed once by ${params.by}`;
    case 'session':
      return `✅ Allowed for this session by ${params.by}`;
    case 'always':
      return `✅ Always allowed by ${params.by}`;
    case 'deny':
      return `⛔ Denied by ${params.by}`;
  }
}

/** What the model is told when the owner denied a command. */
export function deniedReason(params: { by: string }): string {
  return `the owner denied it (${params.by} pressed Deny or answered /deny)`;
}
