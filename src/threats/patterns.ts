/** What kind of threat a pattern finds. */
export type ThreatCategory = 'injection' | 'exfiltration' | 'hidden-html' | 'invisible-unicode';

/** One row of the threat table. */
export interface ThreatPattern {
  readonly id: string;
  readonly category: ThreatCategory;
  readonly test: RegExp;
  /** Why a match is refused, written as "it ...". */
  readonly reason: string;
}

/** The threat table (the threat-scan work extends it; each row has a positive and a benign test). */
export const threatPatterns: readonly ThreatPattern[] = [
  {
    id: 'ignore-previous',
    category: 'injection',
    test: /\bignore\s+(?:all\s+)?(?:the\s+)?(?:previous|prior|above|earlier)\s+(?:instructions|prompts?|rules)\b/i,
    reason: 'it asks to ignore earlier instructions',
  },
  {
    id: 'invisible-unicode',
    category: 'invisible-unicode',
    test: /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/,
    reason: 'it contains invisible Unicode characters (zero-width or bidi controls)',
  },
];
