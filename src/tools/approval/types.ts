/** One row of a pattern table: a stable id, a description for the owner, and the regular expression. */
export interface DangerPattern {
  /** Stable kebab-case id (kept across releases: "always allow" rules refer to it). */
  id: string;
  /** What the command would do, in words a phone user understands ("recursive delete"). */
  description: string;
  /** Tested against each lower-cased normalised segment; lower-case source, no lookaround or backreferences. */
  pattern: RegExp;
}

/** A pattern that matched one segment of a command. */
export interface DangerMatch {
  /** The matching pattern's id. */
  patternId: string;
  /** The matching pattern's description. */
  description: string;
  /** The normalised segment it matched (not lower-cased). */
  segment: string;
}

/** What a command line is: safe to run, in need of the owner's approval, or never to be run. */
export type CommandVerdict =
  | { kind: 'safe' }
  | { kind: 'dangerous'; matches: readonly DangerMatch[] }
  | { kind: 'blocked'; match: DangerMatch };
