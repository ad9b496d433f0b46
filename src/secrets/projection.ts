/** A text's letters and digits in order (its "projection"), with where each one came from. */
export interface Projection {
  /** The letters and digits of the text; every other character (space, punctuation, separators) dropped. */
  readonly chars: string;
  /** Index in the original text of each character of `chars`. */
  readonly positions: Int32Array;
}

/** Word characters among the first 256 code points (ASCII and Latin-1 letters and digits). */
const LOW_TABLE: Uint8Array = (() => {
  const table = new Uint8Array(256);
  for (let code = 0; code < 256; code++) table[code] = /[\p{L}\p{N}]/u.test(String.fromCharCode(code)) ? 1 : 0;
  return table;
})();

const WORD_CHAR = /[\p{L}\p{N}]/u;
/** Turns code units back into a string (lone surrogates cannot occur: they are not letters or digits). */
const UTF16 = new TextDecoder('utf-16le');

/** Whether the UTF-16 code unit `code` of `text` at `index` is a letter or digit (kept by a projection). */
function isWordUnit(text: string, index: number, code: number): boolean {
  if (code < 256) return LOW_TABLE[code] === 1;
  return WORD_CHAR.test(text.charAt(index));
}

/**
 * The projection of `text`: its letters and digits only, so `a b c`, `a-b-c`, `a\nb\nc` and `"a\"bc"` all
 * project to the same characters as `abc`. Linear in the text's length.
 */
export function project(params: { text: string }): Projection {
  const { text } = params;
  const positions = new Int32Array(text.length);
  const units = new Uint16Array(text.length);
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (isWordUnit(text, i, code)) {
      units[count] = code;
      positions[count++] = i;
    }
  }
  const chars = UTF16.decode(units.subarray(0, count));
  return { chars, positions: positions.subarray(0, count) };
}

/** `text` with its UTF-16 code units in reverse order (what `rev` prints for ASCII). */
export function reversed(params: { text: string }): string {
  let out = '';
  for (let i = params.text.length - 1; i >= 0; i--) out += params.text.charAt(i);
  return out;
}
