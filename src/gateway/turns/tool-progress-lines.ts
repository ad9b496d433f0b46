import type { ToolProgressLook } from '../../tools/tool.js';

/** The emoji of a tool whose definition has no `progress`. */
const GENERIC_EMOJI = '🔧';

/** Longest argument shown, in characters (longer ones end in "…"). */
export const MAX_ARG_CHARS = 60;

/** Longest tool name shown (the name comes from the model). */
const MAX_NAME_CHARS = 40;

/** Text on one line, whitespace runs collapsed, at most `max` characters (cut ones end in "…"). */
export function shorten(params: { text: string; max: number }): string {
  const flat = params.text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  if (chars.length <= params.max) return flat;
  return chars.slice(0, Math.max(1, params.max - 1)).join('').trimEnd() + '…';
}

/** The argument `name` of a call's JSON arguments as text, or undefined when absent or not a scalar. */
function argumentOf(params: { json: string; name: string }): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(params.json);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const value = (parsed as Record<string, unknown>)[params.name];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * The compact line the user sees for one tool call, e.g. "⚙ terminal: ls -la" (`emoji: false`: "terminal: ls -la"), drawn
 * with the tool's `look` (its definition's `progress`; absent: the generic 🔧 and the name alone). The argument is scrubbed of
 * secrets whole (before it is cut, so a cut never hides a secret from the scrubber) and shortened to one line.
 */
export function toolProgressLine(params: { name: string; arguments: string; look?: ToolProgressLook | undefined; scrub: (text: string) => string; emoji?: boolean }): string {
  const { scrub, look } = params;
  const name = shorten({ text: scrub(params.name), max: MAX_NAME_CHARS });
  const head = params.emoji === false ? name : `${look?.emoji ?? GENERIC_EMOJI} ${name}`;
  const raw = look?.arg === undefined ? undefined : argumentOf({ json: params.arguments, name: look.arg });
  if (raw === undefined) return head;
  const arg = shorten({ text: scrub(raw), max: MAX_ARG_CHARS });
  if (arg === '') return head;
  // The whole line is scrubbed once more: a secret could span the name and the argument's start.
  switch (look?.style ?? 'space') {
    case 'colon':
      return scrub(`${head}: ${arg}`);
    case 'quoted':
      return scrub(`${head} "${arg}"`);
    case 'space':
      return scrub(`${head} ${arg}`);
  }
}
