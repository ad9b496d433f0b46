/**
 * How replies are written on each platform, by platform name: the platforms' descriptors (adapters/index.ts,
 * `formattingRules`) and the terminal chat's own line. The prompt layer is handed them; it names no platform itself.
 */
export type FormattingRules = Readonly<Record<string, string>>;

/** What a platform without rules of its own gets. */
const GENERAL_RULES = 'Keep formatting simple: short paragraphs and lists, no tables.';

/** The formatting rules for a platform (a general line for one the rules do not name). */
export function platformRules(params: { platform: string; rules: FormattingRules }): string {
  const own = Object.hasOwn(params.rules, params.platform) ? params.rules[params.platform] : undefined;
  return own ?? GENERAL_RULES;
}
