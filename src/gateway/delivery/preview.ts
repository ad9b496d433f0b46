import type { AdapterCapabilities } from '../../core/adapter.js';

/**
 * What an open (streaming) message shows: the text so far, then the tool activity lines below it, then the cursor.
 * The oldest lines give way when text and lines together pass the platform's limit (the text is never cut for
 * them); undefined when there is nothing to show yet.
 */
export function previewText(params: { body: string; lines: readonly string[]; cursor: string; maxLength: number }): string | undefined {
  const { body, lines, cursor } = params;
  for (let from = 0; from < lines.length; from++) {
    const block = lines.slice(from).join('\n');
    const text = (body === '' ? block : `${body}\n\n${block}`) + cursor;
    if (text.length <= params.maxLength) return text;
  }
  return body === '' ? undefined : body + cursor;
}

/**
 * A tool activity line as a platform that renders markup shows it: a code span, so the command reads as it ran
 * (`rm *.txt && ls *.md` is not italics, `[x](url)` not a link, a scrubbed `***` not a rule). Backticks inside
 * become `'` (a code span cannot hold them on every platform). Plain-text platforms get the line unchanged.
 */
export function progressLineMarkup(params: { line: string; markup: AdapterCapabilities['markup'] }): string {
  return params.markup === 'none' ? params.line : `\`${params.line.replace(/`/g, "'")}\``;
}
