/**
 * A decoded reading of parts of a text (base64, hex or percent-encoding undone), as Latin-1 characters (one
 * per byte), with the range of the original text each character came from. Decoded pieces are joined by NUL,
 * which is neither a letter, a digit nor part of any encoding, so spans never start or end on one.
 */
export interface DecodedView {
  /** The decoded bytes as Latin-1 text. */
  readonly text: string;
  /** For each character of `text`, the first index in the original text it came from. */
  readonly starts: readonly number[];
  /** For each character of `text`, the index just after the last original character it came from. */
  readonly ends: readonly number[];
}

/** Shortest base64 run worth decoding: 8 characters hold 6 bytes, enough for the shortest matched secret. */
const MIN_BASE64_RUN = 8;
/** Fewest hex digits worth decoding (4 bytes: the shortest secret). */
const MIN_HEX_DIGITS = 8;
/** Most separator characters allowed between two hex digits of one run (`de ad`, `de:ad`, `\xde\xad`, `%DE%AD`). */
const MAX_HEX_GAP = 3;
const JOIN = '\u0000';

const BASE64_RUN = /[A-Za-z0-9+/_-]{8,}/g;

/** Whether `code` is a base64 or base64url character. */
export function isBase64Char(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code === 43 || code === 47 || code === 95 || code === 45;
}

/** The value of a hex digit, or -1. */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 65 && code <= 70) return code - 55;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}

/** Whether `code` may separate the digits of a hex run (space, newline, `:`, `,`, `.`, `-`, `%`, `\`, `x`). */
export function isHexSeparator(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13 || code === 58 || code === 44 || code === 46 || code === 45 || code === 37 || code === 92 || code === 120 || code === 88;
}

/** Collects decoded characters and their origins. */
class ViewBuilder {
  text = '';
  readonly starts: number[] = [];
  readonly ends: number[] = [];

  push(params: { char: string; start: number; end: number }): void {
    this.text += params.char;
    this.starts.push(params.start);
    this.ends.push(params.end);
  }

  join(): void {
    if (this.text !== '' && !this.text.endsWith(JOIN)) this.push({ char: JOIN, start: 0, end: 0 });
  }

  view(): DecodedView | undefined {
    return this.text.replaceAll(JOIN, '') === '' ? undefined : { text: this.text, starts: this.starts, ends: this.ends };
  }
}

/** Base64 (and base64url) runs decoded at each of the four character offsets, so a secret at any byte alignment shows. */
function base64Views(params: { text: string }): DecodedView[] {
  const builders = [new ViewBuilder(), new ViewBuilder(), new ViewBuilder(), new ViewBuilder()];
  for (const match of params.text.matchAll(BASE64_RUN)) {
    const run = match[0];
    const at = match.index;
    builders.forEach((builder, shift) => {
      const bytes = Buffer.from(run.slice(shift), 'base64');
      for (let j = 0; j < bytes.length; j++) {
        const first = at + shift + Math.floor((8 * j) / 6);
        const last = at + shift + Math.floor((8 * j + 7) / 6);
        builder.push({ char: String.fromCharCode(bytes[j] ?? 0), start: first, end: Math.min(last + 1, at + run.length) });
      }
      builder.join();
    });
  }
  return builders.map((b) => b.view()).filter((v): v is DecodedView => v !== undefined);
}

/** Positions of the digits of each hex run (digits with at most MAX_HEX_GAP separators between them; `0x` counts as a separator). */
function hexRuns(params: { text: string }): number[][] {
  const { text } = params;
  const runs: number[][] = [];
  let digits: number[] = [];
  let gap = 0;
  const flush = (): void => {
    if (digits.length >= MIN_HEX_DIGITS) runs.push(digits);
    digits = [];
    gap = 0;
  };
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (code === 48 && (next === 120 || next === 88) && hexValue(text.charCodeAt(i + 2)) >= 0) {
      gap += 2;
      i += 1;
    } else if (hexValue(code) >= 0) {
      if (gap > MAX_HEX_GAP) flush();
      digits.push(i);
      gap = 0;
      continue;
    } else if (isHexSeparator(code)) {
      gap += 1;
    } else {
      flush();
      continue;
    }
    if (gap > MAX_HEX_GAP) flush();
  }
  flush();
  return runs;
}

/** Hex runs decoded at both digit offsets. */
function hexViews(params: { text: string }): DecodedView[] {
  const builders = [new ViewBuilder(), new ViewBuilder()];
  for (const digits of hexRuns(params)) {
    builders.forEach((builder, shift) => {
      for (let k = shift; k + 1 < digits.length; k += 2) {
        const hi = digits[k] ?? 0;
        const lo = digits[k + 1] ?? 0;
        const value = hexValue(params.text.charCodeAt(hi)) * 16 + hexValue(params.text.charCodeAt(lo));
        builder.push({ char: String.fromCharCode(value), start: hi, end: lo + 1 });
      }
      builder.join();
    });
  }
  return builders.map((b) => b.view()).filter((v): v is DecodedView => v !== undefined);
}

/** The text with every `%XX` decoded to its byte (other characters kept), when it has any. */
function percentView(params: { text: string }): DecodedView | undefined {
  const { text } = params;
  if (!/%[0-9A-Fa-f]{2}/.test(text)) return undefined;
  const builder = new ViewBuilder();
  for (let i = 0; i < text.length; i++) {
    const hi = text.charCodeAt(i) === 37 ? hexValue(text.charCodeAt(i + 1)) : -1;
    const lo = hi >= 0 ? hexValue(text.charCodeAt(i + 2)) : -1;
    if (lo >= 0) {
      builder.push({ char: String.fromCharCode(hi * 16 + lo), start: i, end: i + 3 });
      i += 2;
    } else {
      builder.push({ char: text.charAt(i), start: i, end: i + 1 });
    }
  }
  return builder.view();
}

/** Every decoded reading of `text` worth searching for secrets: base64/base64url, hex and percent-encoding. */
export function decodedViews(params: { text: string }): DecodedView[] {
  const percent = percentView(params);
  return [...base64Views(params), ...hexViews(params), ...(percent ? [percent] : [])];
}

/** Start of the run of base64 characters `text` ends with (its length when it ends with none). */
export function trailingBase64Start(params: { text: string }): number {
  let i = params.text.length;
  while (i > 0 && isBase64Char(params.text.charCodeAt(i - 1))) i--;
  return i;
}

/** Start of the hex run (digits and separators, possibly a separator or two still to be followed by a digit) `text` ends with. */
export function trailingHexStart(params: { text: string }): number {
  const { text } = params;
  let i = text.length;
  let gap = 0;
  let start = text.length;
  while (i > 0) {
    const code = text.charCodeAt(i - 1);
    if (hexValue(code) >= 0) {
      gap = 0;
      start = i - 1;
    } else if (isHexSeparator(code) && gap < MAX_HEX_GAP) {
      gap += 1;
    } else {
      break;
    }
    i--;
  }
  // Only separators at the end and no digit before them: nothing that could be hex.
  return start === text.length ? text.length : start;
}
