/** A line of a .env file that is not KEY=value (dotenv ignores it silently). */
export interface MalformedEnvLine {
  /** 1-based line number. */
  readonly line: number;
}

/** A KEY=value (or `export KEY=value`, or dotenv's `KEY: value`) line, capturing what follows the separator. */
const ASSIGNMENT = /^\s*(?:export\s+)?[\w.-]+(?:\s*=|:\s)(.*)$/;

/**
 * The lines of a .env text that dotenv would skip: neither blank, a # comment, nor an assignment. A quoted value
 * that spans lines (KEY="first\nsecond") is followed to its closing quote, so its inner lines are not reported.
 */
export function malformedEnvLines(params: { text: string }): MalformedEnvLine[] {
  const lines = params.text.split(/\r?\n/);
  const found: MalformedEnvLine[] = [];
  let openQuote: string | undefined;
  lines.forEach((text, index) => {
    if (openQuote !== undefined) {
      if (text.includes(openQuote)) openQuote = undefined;
      return;
    }
    const trimmed = text.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const match = ASSIGNMENT.exec(text);
    if (match === null) {
      found.push({ line: index + 1 });
      return;
    }
    const value = (match[1] ?? '').trimStart();
    const quote = value[0];
    if ((quote === '"' || quote === "'" || quote === '`') && !value.slice(1).includes(quote)) openQuote = quote;
  });
  return found;
}
