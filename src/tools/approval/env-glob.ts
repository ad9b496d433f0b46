/** The file name the glob rule looks for: the profile's (or a project's) secrets file. */
const SECRETS_NAME = '.env';

/**
 * `word` with a last path component that is a shell glob matching `.env` (`.e*`, `.en?`, `.[e]nv`, `.*`) rewritten to
 * name `.env` itself, so the `.env` patterns see what the shell would open; undefined for any other word. Like bash
 * without dotglob, a wildcard never matches the leading dot.
 */
export function envGlobAsFile(word: string): string | undefined {
  const slash = word.lastIndexOf('/');
  const name = word.slice(slash + 1);
  if (!name.startsWith('.') || !/[*?[]/.test(name) || name.length > 64) return undefined;
  return globMatches({ glob: name, text: SECRETS_NAME }) ? `${word.slice(0, slash + 1)}${SECRETS_NAME}` : undefined;
}

/** True when the glob (`*`, `?`, `[…]`, `[!…]`) matches all of `text`; work is glob length × text length. */
function globMatches(params: { glob: string; text: string }): boolean {
  const { glob, text } = params;
  // reach[j]: the glob read so far can match text[0, j).
  let reach: boolean[] = Array.from({ length: text.length + 1 }, (_, j) => j === 0);
  let i = 0;
  while (i < glob.length) {
    const c = glob[i] ?? '';
    const next: boolean[] = new Array<boolean>(text.length + 1).fill(false);
    if (c === '*') {
      let on = false;
      for (let j = 0; j <= text.length; j++) {
        on = on || (reach[j] ?? false);
        next[j] = on;
      }
      i++;
    } else {
      let test: (ch: string) => boolean = (ch) => ch === c;
      let width = 1;
      if (c === '?') test = () => true;
      else if (c === '[') {
        const close = glob.indexOf(']', i + 2);
        if (close > 0) {
          const negate = glob[i + 1] === '!' || glob[i + 1] === '^';
          const set = glob.slice(negate ? i + 2 : i + 1, close);
          test = (ch) => inSet({ set, ch }) !== negate;
          width = close + 1 - i;
        }
      }
      for (let j = 0; j < text.length; j++) next[j + 1] = (reach[j] ?? false) && test(text[j] ?? '');
      i += width;
    }
    reach = next;
  }
  return reach[text.length] ?? false;
}

/** True when `ch` is in a bracket set such as `a-z.` (ranges included). */
function inSet(params: { set: string; ch: string }): boolean {
  const { set, ch } = params;
  for (let k = 0; k < set.length; k++) {
    const lo = set[k] ?? '';
    if (set[k + 1] === '-' && k + 2 < set.length) {
      const hi = set[k + 2] ?? '';
      if (ch >= lo && ch <= hi) return true;
      k += 2;
    } else if (ch === lo) return true;
  }
  return false;
}
