/**
 * A decoded reading of parts of a text (base64, hex or percent-encoding undone), as Latin-1 characters (one
 * per byte), with the range of the original text each character came from. Decoded pieces are joined by NUL,
 * which is neither a letter, a digit nor part of any encoding, so spans never start or end on one.
 */
export interface DecodedView {
  /** The decoded bytes as Latin-1 text. */
  readonly text: string;
  /** For each character of `text`, the first index in the original text it came from. */
  readonly starts: Int32Array;
  /** For each character of `text`, the index just after the last original character it came from. */
  readonly ends: Int32Array;
}

/** Shortest base64 run worth decoding: 8 characters hold 6 bytes, enough for the shortest matched secret. */
const MIN_BASE64_RUN = 8;
/** Fewest hex digits worth decoding (4 bytes: the shortest secret). */
const MIN_HEX_DIGITS = 8;
/** Most separator characters allowed between two hex digits of one run (`de ad`, `de:ad`, `\xde\xad`, `%DE%AD`). */
const MAX_HEX_GAP = 3;

const BASE64_RUN = new RegExp(`[A-Za-z0-9+/_-]{${MIN_BASE64_RUN},}`, 'g');

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

/** Collects decoded bytes and their origins in preallocated arrays. */
class ViewBuilder {
  private readonly bytes: Uint8Array;
  private readonly starts: Int32Array;
  private readonly ends: Int32Array;
  private length = 0;
  private decoded = 0;
  /** Whether the last entry is a join (or there is none yet). */
  private joined = true;

  /** `capacity` is the most bytes (joins included) that will be pushed. */
  constructor(params: { capacity: number }) {
    this.bytes = new Uint8Array(params.capacity);
    this.starts = new Int32Array(params.capacity);
    this.ends = new Int32Array(params.capacity);
  }

  /** Adds a decoded byte that came from original characters [start, end). Positional: called once per decoded byte. */
  push(byte: number, start: number, end: number): void {
    this.bytes[this.length] = byte;
    this.starts[this.length] = start;
    this.ends[this.length] = end;
    this.length += 1;
    this.decoded += 1;
    this.joined = false;
  }

  /** Ends a decoded piece: a NUL keeps it from running into the next one. */
  join(): void {
    if (this.joined) return;
    this.bytes[this.length] = 0;
    this.length += 1;
    this.joined = true;
  }

  /** The view, or undefined when nothing was decoded. */
  view(): DecodedView | undefined {
    if (this.decoded === 0) return undefined;
    const text = Buffer.from(this.bytes.buffer, this.bytes.byteOffset, this.length).toString('latin1');
    return { text, starts: this.starts.subarray(0, this.length), ends: this.ends.subarray(0, this.length) };
  }
}

/** The 6-bit value of each base64 and base64url character, -1 for others. */
const BASE64_VALUES: Int8Array = (() => {
  const values = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  for (let i = 0; i < alphabet.length; i++) values[alphabet.charCodeAt(i)] = i;
  values[43] = 62; // +
  values[45] = 62; // -
  values[47] = 63; // /
  values[95] = 63; // _
  return values;
})();

/** A run of encoded characters: [start, end) of the text. */
interface Run {
  readonly start: number;
  readonly end: number;
}

/** Base64 (and base64url) runs decoded at each of the four character offsets, so a secret at any byte alignment shows. */
function base64Views(params: { text: string; runs: readonly Run[] }): DecodedView[] {
  const { text, runs } = params;
  if (runs.length === 0) return [];
  const capacity = runs.reduce((sum, run) => sum + Math.ceil(((run.end - run.start) * 3) / 4) + 1, 0);
  const views: DecodedView[] = [];
  for (let shift = 0; shift < 4; shift++) {
    const builder = new ViewBuilder({ capacity });
    for (const run of runs) {
      const end = run.end;
      let bits = 0;
      let count = 0;
      let first = run.start + shift;
      for (let i = run.start + shift; i < end; i++) {
        if (count === 0) first = i;
        bits = ((bits << 6) | (BASE64_VALUES[text.charCodeAt(i)] ?? 0)) & 0xffff;
        count += 6;
        if (count >= 8) {
          count -= 8;
          builder.push((bits >> count) & 0xff, first, i + 1);
          first = count === 0 ? i + 1 : i;
        }
      }
      builder.join();
    }
    const view = builder.view();
    if (view) views.push(view);
  }
  return views;
}

/** Where the digits of the hex runs are: `positions[from..to)` for each run in `runs`. */
interface HexRuns {
  readonly positions: Int32Array;
  readonly runs: readonly { readonly from: number; readonly to: number }[];
}

/** The digits of each hex run from `from` on (digits with at most MAX_HEX_GAP separators between them; `0x` counts as one). */
function hexRuns(params: { text: string; from?: number; minDigits?: number }): HexRuns {
  const { text } = params;
  const minDigits = params.minDigits ?? MIN_HEX_DIGITS;
  const positions = new Int32Array(text.length);
  const runs: { from: number; to: number }[] = [];
  let count = 0;
  let from = 0;
  let gap = 0;
  const flush = (): void => {
    if (count - from >= minDigits) runs.push({ from, to: count });
    else count = from;
    from = count;
    gap = 0;
  };
  for (let i = params.from ?? 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (hexValue(code) >= 0) {
      if (code === 48 && (text.charCodeAt(i + 1) | 32) === 120 && hexValue(text.charCodeAt(i + 2)) >= 0) {
        // A `0x` prefix counts as one separator: `0x54, 0x45` has a gap of three.
        gap += 1;
        i += 1;
      } else {
        if (gap > MAX_HEX_GAP) flush();
        positions[count++] = i;
        gap = 0;
        continue;
      }
    } else if (isHexSeparator(code)) {
      gap += 1;
    } else {
      if (count > from) flush();
      continue;
    }
    if (gap > MAX_HEX_GAP && count > from) flush();
  }
  flush();
  return { positions, runs };
}

/** Hex runs decoded at both digit offsets. */
function hexViews(params: { text: string; found: HexRuns }): DecodedView[] {
  const { positions, runs } = params.found;
  if (runs.length === 0) return [];
  const capacity = runs.reduce((sum, run) => sum + Math.ceil((run.to - run.from) / 2) + 1, 0);
  const views: DecodedView[] = [];
  for (let shift = 0; shift < 2; shift++) {
    const builder = new ViewBuilder({ capacity });
    for (const run of runs) {
      for (let k = run.from + shift; k + 1 < run.to; k += 2) {
        const hi = positions[k] ?? 0;
        const lo = positions[k + 1] ?? 0;
        builder.push(hexValue(params.text.charCodeAt(hi)) * 16 + hexValue(params.text.charCodeAt(lo)), hi, lo + 1);
      }
      builder.join();
    }
    const view = builder.view();
    if (view) views.push(view);
  }
  return views;
}

/** The text with every `%XX` decoded to its byte (other characters kept, as their low byte), when it has any. */
function percentView(params: { text: string }): DecodedView | undefined {
  const { text } = params;
  if (!/%[0-9A-Fa-f]{2}/.test(text)) return undefined;
  const builder = new ViewBuilder({ capacity: text.length });
  for (let i = 0; i < text.length; i++) {
    const hi = text.charCodeAt(i) === 37 ? hexValue(text.charCodeAt(i + 1)) : -1;
    const lo = hi >= 0 ? hexValue(text.charCodeAt(i + 2)) : -1;
    if (lo >= 0) {
      builder.push(hi * 16 + lo, i, i + 3);
      i += 2;
    } else {
      const code = text.charCodeAt(i);
      builder.push(code < 256 ? code : 0x3f, i, i + 1);
    }
  }
  return builder.view();
}

/** Every decoded reading of `text` worth searching for secrets: base64/base64url, hex and percent-encoding. */
export function decodedViews(params: { text: string }): DecodedView[] {
  const { text } = params;
  const runs = [...text.matchAll(BASE64_RUN)].map((m): Run => ({ start: m.index, end: m.index + m[0].length }));
  const percent = percentView(params);
  return [...base64Views({ text, runs }), ...hexViews({ text, found: hexRuns({ text }) }), ...(percent ? [percent] : [])];
}

/** Fewest characters of a base64 or hex run at the end of a text worth decoding for the streaming hold-back (2+ bytes). */
const MIN_TAIL_RUN = 4;

/**
 * The base64 and hex run a still-growing text ends with, decoded at every offset: what the streaming hold-back
 * checks for the start of an encoded secret. Empty when the text ends with no such run of MIN_TAIL_RUN or more.
 */
export function tailViews(params: { text: string }): DecodedView[] {
  const { text } = params;
  const b64 = trailingBase64Start({ text });
  const hex = trailingHexStart({ text });
  return [
    ...(text.length - b64 >= MIN_TAIL_RUN ? base64Views({ text, runs: [{ start: b64, end: text.length }] }) : []),
    ...(hex < text.length ? hexViews({ text, found: hexRuns({ text, from: hex, minDigits: MIN_TAIL_RUN }) }) : []),
  ];
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
