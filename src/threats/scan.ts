import { threatPatterns, type ThreatCategory } from './patterns.js';

/** Where scanned text comes from (for the reason and the log line). */
export type ThreatSource = 'memory' | 'context-file' | 'skill';

/** Why a text was refused. */
export interface ThreatFinding {
  /** The pattern's id in the table (e.g. "ignore-previous"). */
  readonly id: string;
  readonly category: ThreatCategory;
  /** One line for the user or the model, e.g. "it asks to ignore earlier instructions". */
  readonly reason: string;
}

/**
 * Checks text bound for the system prompt (memory writes, context files, skills) for prompt injection, exfiltration,
 * hidden HTML and invisible Unicode. Returns the first finding, or undefined when the text is clean.
 */
export function scanForThreats(params: { text: string; source: ThreatSource }): ThreatFinding | undefined {
  for (const pattern of threatPatterns) {
    if (pattern.test.test(params.text)) return { id: pattern.id, category: pattern.category, reason: pattern.reason };
  }
  return undefined;
}
