/**
 * Case folding the way JavaScript's /i flag does it (non-unicode mode, ES "Canonicalize"): a code
 * unit maps to its upper case when that is a single code unit and does not turn non-ASCII into ASCII.
 * Matching a folded pattern against folded text equals matching the pattern with /i.
 */

let table: Uint16Array | undefined;

/** The canonical (folded) code unit for every UTF-16 code unit, built on first use. */
function canonTable(): Uint16Array {
  if (table) return table;
  table = new Uint16Array(0x10000);
  for (let code = 0; code < 0x10000; code++) {
    const upper = String.fromCharCode(code).toUpperCase();
    const folded = upper.length === 1 ? upper.charCodeAt(0) : code;
    table[code] = code >= 128 && folded < 128 ? code : folded;
  }
  return table;
}

/** The folded form of one code unit. */
export function canonicalCode(code: number): number {
  return canonTable()[code] ?? code;
}

/** Folds every code unit of `text`; the result has the same length and the same line breaks. */
export function canonicalize(text: string): string {
  const canon = canonTable();
  const parts: string[] = [];
  const CHUNK = 8_192;
  for (let start = 0; start < text.length; start += CHUNK) {
    const end = Math.min(text.length, start + CHUNK);
    const codes = new Array<number>(end - start);
    for (let i = start; i < end; i++) codes[i - start] = canon[text.charCodeAt(i)] ?? 0;
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join('');
}

/** A code unit as a regex escape, safe inside and outside character classes. */
export function codeEscape(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * Class members to add so a class matches folded text: the folded forms of its single characters
 * and ranges that it does not already contain, as escaped class source (e.g. `\u0041-\u005a`).
 */
export function foldedClassExtras(params: { singles: readonly number[]; ranges: readonly [number, number][] }): string {
  const canon = canonTable();
  const inClass = (code: number): boolean =>
    params.singles.includes(code) || params.ranges.some(([low, high]) => code >= low && code <= high);
  const extra = new Set<number>();
  const consider = (code: number): void => {
    const folded = canon[code] ?? code;
    if (folded !== code && !extra.has(folded) && !inClass(folded)) extra.add(folded);
  };
  params.singles.forEach(consider);
  for (const [low, high] of params.ranges) for (let code = low; code <= high; code++) consider(code);
  const sorted = [...extra].sort((a, b) => a - b);
  let source = '';
  for (let i = 0; i < sorted.length; i++) {
    const first = sorted[i] ?? 0;
    let last = first;
    while (sorted[i + 1] === last + 1) last = sorted[++i] ?? last;
    source += last === first ? codeEscape(first) : `${codeEscape(first)}-${codeEscape(last)}`;
  }
  return source;
}
