/** What kind of threat a pattern finds. */
export type ThreatCategory = 'injection' | 'exfiltration' | 'hidden-html' | 'invisible-unicode';

/**
 * Which copy of the text a pattern runs on (see normalize.ts):
 * - `flat`: NFKC, invisible characters removed, lower case, every whitespace run one space, no spaces between
 *   Chinese/Japanese characters (phrases that a line wrap or inserted spaces split still match);
 * - `lines`: the same but newlines kept (shell commands are matched within one line);
 * - `raw`: the text as written (the invisible characters themselves; emoji ZWJ sequences, tag flags and a
 *   leading byte-order mark excused).
 */
export type ThreatView = 'flat' | 'lines' | 'raw';

/** One row of the threat table. */
export interface ThreatPattern {
  readonly id: string;
  readonly category: ThreatCategory;
  readonly view: ThreatView;
  /**
   * Literal words (alternatives, `\b` at most; no quantifiers, so it cannot backtrack) that every match of `test`
   * contains; the slower linear-time `test` runs only on a view where the anchor is found.
   */
  readonly anchor: RegExp;
  /**
   * For `flat` rows whose matches are short: the test runs only within this many characters around each anchor
   * occurrence (much faster on long texts). A match reaching further from its anchor is not found, so rows whose
   * match can be long (a comment's body, a tag's attributes, a URL) leave it unset.
   */
  readonly window?: number;
  /**
   * Written for V8's linear-time engine (scan.ts compiles it with the `l` flag, so no text can make it
   * backtrack): no lookaround, no backreferences, no counted repetition, no `i`/`u` flags (the views are
   * lower-cased; astral characters are written as surrogate pairs).
   */
  readonly test: RegExp;
  /** Why a match is refused, written as "it ...". */
  readonly reason: string;
  /**
   * For `lines` rows: a line the test matches is excused when this (written like `test`, anchored with ^ and $)
   * matches the whole line.
   */
  readonly allow?: RegExp;
}
