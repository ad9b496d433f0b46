/** How a tool's calls are shown: its emoji, the argument worth showing, and how it is set off from the name. */
interface ToolLook {
  readonly emoji: string;
  /** The argument shown after the name (none: the name alone). */
  readonly arg?: string;
  /** `colon`: "⚙ terminal: ls -la"; `space`: "📖 read_file notes.md"; `quoted`: '🔎 search_files "TODO"'. */
  readonly style?: 'colon' | 'space' | 'quoted';
}

/** One row per known tool; any other tool gets the generic look (🔧 and its name). */
const TOOL_LOOKS: Readonly<Record<string, ToolLook>> = {
  terminal: { emoji: '⚙', arg: 'command', style: 'colon' },
  read_file: { emoji: '📖', arg: 'path' },
  write_file: { emoji: '✍', arg: 'path' },
  patch: { emoji: '✍', arg: 'path' },
  search_files: { emoji: '🔎', arg: 'pattern', style: 'quoted' },
  memory: { emoji: '🧠', arg: 'action', style: 'colon' },
  session_search: { emoji: '🔍', arg: 'query', style: 'quoted' },
  skill_view: { emoji: '📚', arg: 'name' },
  skills_list: { emoji: '📚' },
  skill_manage: { emoji: '📚', arg: 'name' },
  cronjob: { emoji: '⏰', arg: 'action' },
  delegate_task: { emoji: '🤝', arg: 'goal', style: 'colon' },
  execute_code: { emoji: '🐍' },
  clarify: { emoji: '❓' },
  // The target only: a message's body is never shown in the progress line.
  send_message: { emoji: '✉', arg: 'target', style: 'colon' },
};

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
 * The compact line the user sees for one tool call, e.g. "⚙ terminal: ls -la" (`emoji: false`: "terminal: ls -la"). The argument is scrubbed of
 * secrets whole (before it is cut, so a cut never hides a secret from the scrubber) and shortened to one line.
 */
export function toolProgressLine(params: { name: string; arguments: string; scrub: (text: string) => string; emoji?: boolean }): string {
  const { scrub } = params;
  const look = TOOL_LOOKS[params.name];
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
