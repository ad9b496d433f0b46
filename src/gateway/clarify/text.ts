import type { OutboundChoice } from '../../core/adapter.js';
import { durationText } from '../approvals/text.js';

/** Longest button label (longer choices are cut with an ellipsis, and then also listed in the question's text). */
const MAX_LABEL_CHARS = 60;

/** Longest answer quoted in the question's decision line. */
const MAX_QUOTED_CHARS = 200;

/** Cuts `text` to `max` characters with an ellipsis. */
function cut(params: { text: string; max: number }): string {
  const flat = params.text.trim();
  return flat.length > params.max ? `${flat.slice(0, params.max - 1)}…` : flat;
}

/** The question's head: the question and, where there are no buttons (or a label had to be cut), its numbered choices. */
export function questionHead(params: { question: string; choices: readonly string[]; buttons: boolean }): string {
  const listed = params.choices.length > 0 && (!params.buttons || params.choices.some((c) => c.trim().length > MAX_LABEL_CHARS));
  const list = listed ? `\n\n${params.choices.map((c, i) => `${i + 1}. ${c.trim()}`).join('\n')}` : '';
  return `❓ ${params.question.trim()}${list}`;
}

/** The question: its head, then how to answer (buttons or a number where there are choices; else a reply) and the wait. */
export function questionText(params: { head: string; choices: readonly string[]; buttons: boolean; timeoutMs: number; group: boolean }): string {
  const n = params.choices.length;
  const how =
    n === 0
      ? 'Reply with your answer.'
      : params.buttons
      ? 'Press a button, or reply with your own answer.'
      : `Reply with a number (1–${n}) or your own answer.`;
  const who = params.group ? ' Only the owner can answer.' : '';
  return `${params.head}\n\n${how}${who} No answer in ${durationText({ ms: params.timeoutMs })}: the agent goes on without one.`;
}

/** The buttons of a question: one per choice, `cl:<requestId>:<index>`. */
export function questionChoices(params: { requestId: string; choices: readonly string[] }): OutboundChoice[] {
  return params.choices.map((choice, i) => ({ id: `cl:${params.requestId}:${i}`, label: cut({ text: choice, max: MAX_LABEL_CHARS }) }));
}

/** Which answer a message gives: "2" or a choice's text (any case) picks that choice; any other text is itself the answer. */
export function messageAnswer(params: { text: string; choices: readonly string[] }): { answer: string; choice: boolean } {
  const text = params.text.trim();
  const { choices } = params;
  if (/^\d+$/.test(text)) {
    const picked = choices[Number(text) - 1];
    if (picked !== undefined) return { answer: picked, choice: true };
  }
  const same = choices.find((c) => c.trim().toLowerCase() === text.toLowerCase());
  return same === undefined ? { answer: text, choice: false } : { answer: same, choice: true };
}

/** The line the question ends with once the owner answered. */
export function answeredLine(params: { answer: string; by: string }): string {
  return `✅ ${params.by} answered: ${cut({ text: params.answer, max: MAX_QUOTED_CHARS })}`;
}

/** The line the question ends with when nobody answered in time. */
export function timeoutLine(params: { timeoutMs: number }): string {
  return `⌛ No answer in ${durationText({ ms: params.timeoutMs })} — the agent goes on without one`;
}

/** The line the question ends with when the turn ended first (/stop, a new message, /new, shutdown). */
export function cancelledLine(params: { why: string }): string {
  return `⛔ Not answered: ${params.why}`;
}
