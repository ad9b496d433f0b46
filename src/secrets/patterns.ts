import { GramSet } from './gram-set.js';
import { project, reversed } from './projection.js';

/** How many consecutive letters and digits of a secret are enough to call a text a copy of it. */
export const GRAM_LENGTH = 8;

/** A run of GRAM_LENGTH characters with fewer distinct characters than this ("00000000", "abababab") is too common to count. */
const MIN_DISTINCT = 3;

/** The profile's secrets compiled for matching (see spans.ts for how they are used). */
export interface SecretPatterns {
  /** Every GRAM_LENGTH-character run of each long secret's projection, forwards and reversed. */
  readonly grams: GramSet;
  /**
   * Every GRAM_LENGTH-character run of each secret as it is (forwards and reversed) that holds a separator
   * (`n-for-th`): such a run has fewer letters and digits than a gram, yet it is 8 characters of the secret.
   */
  readonly rawGrams: GramSet;
  /** The whole projection of each long secret, forwards and reversed. */
  readonly wholes: readonly string[];
  /** Exact strings for secrets too short for grams: each secret, reversed and JSON-escaped; longest first. */
  readonly raws: readonly string[];
  /** Length of the longest projection in `wholes` (0 when there is none). */
  readonly longestWhole: number;
  /** True when there is nothing to match. */
  readonly empty: boolean;
}

/** Letters and digits that read like an ordinary word or number: `personal`, `Password`, `HTTPS`, `20261201`. */
const ORDINARY = /^(?:\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+)$/u;

/**
 * Whether a run of a secret is too ordinary to count as a piece of it on its own: too few distinct characters
 * (`00000000`), or its letters and digits read like a word or a number. A random token almost never has such a
 * run, and any of its characters is also covered by a neighbouring run; a secret made of words is still found whole.
 */
function ordinary(gram: string): boolean {
  return new Set(gram).size < MIN_DISTINCT || ORDINARY.test(project({ text: gram }).chars);
}

/**
 * Compiles secrets: those whose projection (letters and digits) has at least GRAM_LENGTH characters are
 * matched by content (any GRAM_LENGTH of their consecutive letters and digits, whatever separates them,
 * forwards or reversed); shorter ones only whole, as they are, reversed or JSON-escaped.
 */
export function compilePatterns(params: { secrets: readonly string[] }): SecretPatterns {
  const grams = new Set<string>();
  const wholes = new Set<string>();
  const raws = new Set<string>();
  const rawGrams = new Set<string>();
  for (const secret of params.secrets) {
    for (const form of [secret, reversed({ text: secret })]) {
      for (let i = 0; i + GRAM_LENGTH <= form.length; i++) {
        const gram = form.slice(i, i + GRAM_LENGTH);
        if (project({ text: gram }).chars.length < GRAM_LENGTH && !ordinary(gram)) rawGrams.add(gram);
      }
    }
    const { chars } = project({ text: secret });
    if (chars.length < GRAM_LENGTH) {
      for (const form of [secret, reversed({ text: secret })]) {
        raws.add(form);
        raws.add(JSON.stringify(form).slice(1, -1));
      }
      continue;
    }
    for (const form of [chars, reversed({ text: chars })]) {
      wholes.add(form);
      for (let i = 0; i + GRAM_LENGTH <= form.length; i++) {
        const gram = form.slice(i, i + GRAM_LENGTH);
        if (!ordinary(gram)) grams.add(gram);
      }
    }
  }
  const wholeList = [...wholes];
  return {
    grams: new GramSet({ grams, length: GRAM_LENGTH }),
    rawGrams: new GramSet({ grams: rawGrams, length: GRAM_LENGTH }),
    wholes: wholeList,
    raws: [...raws].sort((a, b) => b.length - a.length),
    longestWhole: wholeList.reduce((max, whole) => Math.max(max, whole.length), 0),
    empty: wholes.size === 0 && raws.size === 0 && rawGrams.size === 0,
  };
}

/** The secrets as Latin-1 views of their UTF-8 bytes: what they look like in decoded bytes (base64, hex, files). */
export function byteForms(params: { secrets: readonly string[] }): string[] {
  return params.secrets.map((secret) => Buffer.from(secret, 'utf8').toString('latin1'));
}
