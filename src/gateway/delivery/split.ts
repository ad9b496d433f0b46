import { fenceStateAfter, isClosingFence } from './fence.js';

/** Smallest limit the splitter accepts: room to close and reopen a code fence and still make progress. */
export const MIN_SPLIT_LIMIT = 16;

/** What a chunk that ends inside a code fence gets appended. */
const FENCE_CLOSE = '\n```';
const LEADING_BLANK_LINES = /^(?:[ \t]*\r?\n)+/;
/** How far past the window the segmenter reads, so a grapheme cluster straddling the cut is seen whole. */
const GRAPHEME_LOOKAHEAD = 64;
const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** One chunk taken off the front of a text. */
export interface TakenChunk {
  /** The chunk as shown: fences closed at its end and reopened at its start; '' when only blank space was taken. */
  readonly text: string;
  /** How many characters of the source the chunk used up (blank lines and the separator after it included). */
  readonly consumed: number;
  /** The fence line still open after the chunk, to reopen at the start of the next one; null when none. */
  readonly openFence: string | null;
}

/** A cut of `source`: the chunk is `source.slice(0, end)`, the rest starts at `next`. */
interface Piece {
  readonly text: string;
  readonly next: number;
  readonly open: string | null;
}

/**
 * Splits `text` into chunks of at most `limit` UTF-16 units, preferring paragraph, line, sentence and word
 * boundaries, never cutting a grapheme cluster, and closing/reopening code fences across chunks.
 * `openFence` is the fence line already open where `text` starts (for continuing an earlier split).
 */
export function splitMessage(params: { text: string; limit: number; openFence?: string | null }): string[] {
  assertLimit({ limit: params.limit });
  const chunks: string[] = [];
  let rest = params.text;
  let open = params.openFence ?? null;
  while (/\S/.test(rest)) {
    const taken = takeChunk({ text: rest, limit: params.limit, openFence: open });
    if (taken.text !== '') chunks.push(taken.text);
    rest = rest.slice(taken.consumed);
    open = taken.openFence;
  }
  return chunks;
}

/** Takes the first chunk (at most `limit` units) off `text`, by the same rules as `splitMessage`. */
export function takeChunk(params: { text: string; limit: number; openFence?: string | null }): TakenChunk {
  assertLimit({ limit: params.limit });
  const carried = params.openFence ?? null;
  const lead = LEADING_BLANK_LINES.exec(params.text)?.[0].length ?? 0;
  const source = params.text.slice(lead);
  if (!/\S/.test(source)) return { text: '', consumed: params.text.length, openFence: carried };

  const prefix = reopenPrefix({ open: carried, limit: params.limit });
  const room = params.limit - prefix.length;
  const whole = source.trimEnd();
  if (whole.length <= room) {
    return { text: prefix + whole, consumed: params.text.length, openFence: fenceStateAfter({ text: whole, open: carried }) };
  }
  let piece = cutPiece({ source, window: room, carried });
  if (piece.open !== null && piece.text.length + FENCE_CLOSE.length > room) {
    piece = cutPiece({ source, window: room - FENCE_CLOSE.length, carried });
  } else if (piece.text.length > room) {
    // The original closing fence was taken in, which needs the room reserved for an added one.
    piece = cutPiece({ source, window: room - FENCE_CLOSE.length, carried });
  }
  const text = prefix + piece.text + (piece.open === null ? '' : FENCE_CLOSE);
  return { text, consumed: lead + piece.next, openFence: piece.open };
}

/** Throws when `limit` leaves no room for fence overhead. */
function assertLimit(params: { limit: number }): void {
  if (!Number.isInteger(params.limit) || params.limit < MIN_SPLIT_LIMIT) {
    throw new RangeError(
      `Message limit ${params.limit} is too small to split text: use an integer of at least ${MIN_SPLIT_LIMIT} ` +
        '(the platform adapter\'s capabilities.maxMessageLength).',
    );
  }
}

/**
 * What a chunk starts with when a fence is open at its start: the fence line and a line break ('' when none).
 * A bare ``` replaces an opening line so long it would eat too much of the limit.
 */
export function reopenPrefix(params: { open: string | null; limit: number }): string {
  if (params.open === null) return '';
  const line = params.open.length + 1 + FENCE_CLOSE.length <= params.limit / 2 ? params.open : '```';
  return `${line}\n`;
}

/** Cuts `source` to at most `window` units (plus an original closing fence line) and works out the fence state. */
function cutPiece(params: { source: string; window: number; carried: string | null }): Piece {
  const { source, carried } = params;
  const cut = findCut({ text: source, window: params.window });
  const text = source.slice(0, cut.end).trimEnd();
  const open = fenceStateAfter({ text, open: carried });
  if (open === null) return { text, next: cut.next, open };

  // A fence opened on the chunk's last line: move the opener to the next chunk instead of leaving an empty block.
  const lastBreak = text.lastIndexOf('\n');
  const head = text.slice(0, Math.max(lastBreak, 0));
  if (lastBreak > 0 && fenceStateAfter({ text: head, open: carried }) === null) {
    return { text: head.trimEnd(), next: lastBreak + 1, open: null };
  }
  // The original closing fence comes right after the cut: take it in instead of adding one.
  const after = source.slice(cut.next);
  const gap = LEADING_BLANK_LINES.exec(after)?.[0].length ?? 0;
  const lineEnd = after.indexOf('\n', gap);
  const line = after.slice(gap, lineEnd === -1 ? undefined : lineEnd);
  if (isClosingFence({ line }) && line.trim() === '```') {
    const next = cut.next + gap + line.length + (lineEnd === -1 ? 0 : 1);
    return { text: `${text}${FENCE_CLOSE}`, next, open: null };
  }
  return { text, next: cut.next, open };
}

/**
 * Where to cut `text` so the chunk has at most `window` units: the last paragraph break, line break,
 * sentence end or space in the second half of the window, in that order; else a grapheme boundary.
 */
function findCut(params: { text: string; window: number }): { end: number; next: number } {
  const { text: s, window: w } = params;
  if (s.length <= w) return { end: s.length, next: s.length };
  const min = Math.ceil(w / 2);
  const paragraph = s.lastIndexOf('\n\n', w);
  if (paragraph >= min) return { end: paragraph, next: paragraph + 2 };
  const line = s.lastIndexOf('\n', w);
  if (line >= min) return { end: line, next: line + 1 };
  for (let i = Math.min(w - 1, s.length - 2); i >= min - 1; i--) {
    if ('.!?'.includes(s.charAt(i)) && s.charAt(i + 1) === ' ') return { end: i + 1, next: i + 2 };
  }
  const space = s.lastIndexOf(' ', w);
  if (space >= min) return { end: space, next: space + 1 };
  const hard = graphemeCut({ text: s, window: w });
  return { end: hard, next: hard };
}

/** The last grapheme boundary at or before `window`; a code point boundary if one cluster is longer than that. */
function graphemeCut(params: { text: string; window: number }): number {
  const { text, window } = params;
  let best = 0;
  for (const { index } of segmenter.segment(text.slice(0, window + GRAPHEME_LOOKAHEAD))) {
    if (index > window) break;
    best = index;
  }
  if (best > 0) return best;
  const code = text.charCodeAt(window - 1);
  return code >= 0xd800 && code <= 0xdbff ? window - 1 : window;
}
