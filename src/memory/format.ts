/**
 * Hermes Agent's memory file format: entries joined by a line holding only `§` (its ENTRY_DELIMITER "\n§\n"), no
 * trailing newline. Sizes are counted in Unicode code points over the joined text, as Hermes's `len()` counts them,
 * so one file has the same usage figure here and there.
 */

/** The line that separates two entries of a memory file. */
export const ENTRY_SEPARATOR = '§';

/** What joins two entries in a written file (Hermes writes exactly this). */
export const ENTRY_DELIMITER = `\n${ENTRY_SEPARATOR}\n`;

/** A line holding only `§` (spaces, tabs and a carriage return around it allowed). */
const separatorLine = /^[ \t]*§[ \t]*$/m;

/**
 * Entries of a memory file's text: blocks between lines holding only `§`, trimmed, empty ones dropped. Reads what
 * Hermes writes and what a hand edit leaves (CRLF line ends, a BOM, spaces around `§`, blank lines).
 */
export function parseEntries(params: { text: string }): string[] {
  const text = params.text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  return text
    .split(new RegExp(separatorLine.source, 'm'))
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** The file text for `entries` (Hermes's bytes: joined by "\n§\n", nothing when there are none). */
export function serializeEntries(params: { entries: readonly string[] }): string {
  return params.entries.join(ENTRY_DELIMITER);
}

/** True when `text` has a line holding only `§`: saved as one entry, it would read back as several. */
export function hasSeparatorLine(params: { text: string }): boolean {
  return separatorLine.test(params.text.replace(/\r\n?/g, '\n'));
}

/** Length of a text in code points (what the character limits count). */
export function charCount(params: { text: string }): number {
  let count = 0;
  for (const _ of params.text) count++;
  return count;
}

/** The characters `entries` use in a file (delimiters included), the figure the limits apply to. */
export function entriesChars(params: { entries: readonly string[] }): number {
  return charCount({ text: serializeEntries(params) });
}

/** A one-line preview of an entry: whitespace folded, cut at `width` code points with "…". */
export function preview(params: { entry: string; width?: number }): string {
  const width = params.width ?? 80;
  const flat = params.entry.replace(/\s+/g, ' ').trim();
  const points = [...flat];
  return points.length <= width ? flat : `${points.slice(0, width).join('')}…`;
}

/** A number with thousands separators ("2,200"), the same on every host. */
export function grouped(params: { n: number }): string {
  return params.n.toLocaleString('en-US');
}

/** "1,234/2,200 chars (56%)". */
export function usageText(params: { used: number; limit: number }): string {
  const percent = params.limit > 0 ? Math.round((params.used / params.limit) * 100) : 0;
  return `${grouped({ n: params.used })}/${grouped({ n: params.limit })} chars (${percent}%)`;
}
