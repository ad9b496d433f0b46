/** Invisible characters dropped before matching: zero-width, bidi controls, fillers, variation selectors, tags. */
const INVISIBLE =
  // eslint-disable-next-line no-misleading-character-class -- each code point in the class is one invisible character to drop, never a combined one
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]|\uDB40[\uDC00-\uDDEF]/g;

/** Chinese characters and kana: no spaces between words, so spaces between them are dropped in the flat view. */
const HAN_KANA = '[\\u3040-\\u30ff\\u3400-\\u4dbf\\u4e00-\\u9fff\\uf900-\\ufaff]';
const HAN_KANA_SPACE = new RegExp(`(${HAN_KANA}) (?=${HAN_KANA})`, 'g');

/** Scripts that join letters with ZWJ/ZWNJ as ordinary spelling (Persian, Hindi, ...). */
const JOINING = String.raw`[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{M}]`;
const JOINER_IN_WORD = new RegExp(`(${JOINING})[\\u200C\\u200D](?=${JOINING})`, 'gu');
/** ZWJ inside an emoji sequence (👩‍💻). */
const EMOJI_ZWJ = /(\p{Extended_Pictographic}|\p{Emoji_Modifier})\uFE0F?\u200D(?=\p{Extended_Pictographic})/gu;
/** Subdivision flags (🏴 + tag letters + cancel tag). */
const TAG_FLAG = /\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}/gu;

/** Quotes NFKC leaves curly ("don’t" must match "don't"). */
const QUOTES: Readonly<Record<string, string>> = { '\u2018': "'", '\u2019': "'", '\u02BC': "'", '\u201C': '"', '\u201D': '"' };
const QUOTE = /[\u2018\u2019\u02BC\u201C\u201D]/g;

/** Cyrillic and Greek letters that look like Latin ones ("іgnore" with a Cyrillic і), mapped for matching only. */
const LOOKALIKES: Readonly<Record<string, string>> = {
  а: 'a', в: 'b', е: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  і: 'i', ј: 'j', ѕ: 's', ԁ: 'd', ԛ: 'q', ԝ: 'w', ɡ: 'g', ο: 'o', α: 'a', ι: 'i', κ: 'k', ν: 'v', ρ: 'p', τ: 't', υ: 'u', ε: 'e',
};
const LOOKALIKE_CLASS = `[${Object.keys(LOOKALIKES).join('')}]`;
const LOOKALIKE = new RegExp(LOOKALIKE_CLASS, 'g');
const HAS_LOOKALIKE = new RegExp(LOOKALIKE_CLASS);
/** A Latin letter next to a look-alike: only words that mix scripts are mapped (Russian or Greek text stays as it is). */
const MIXED_WORD = /[\p{L}\p{M}]+/gu;

/** Maps look-alike letters in words that also hold Latin letters. */
function unmaskLookalikes(text: string): string {
  if (!HAS_LOOKALIKE.test(text)) return text;
  return text.replace(MIXED_WORD, (word) => (/[a-z]/.test(word) && HAS_LOOKALIKE.test(word) ? word.replace(LOOKALIKE, (c) => LOOKALIKES[c] ?? c) : word));
}

/** The copies of a text the threat patterns run on (see ThreatView in patterns.ts). */
export interface ScanViews {
  /** As written, minus the invisible characters ordinary text legitimately has (emoji ZWJ, tag flags, a leading BOM). */
  readonly raw: string;
  /**
   * NFKC, invisibles removed, lower case, straight quotes, look-alike Cyrillic/Greek letters in Latin words mapped,
   * horizontal whitespace collapsed, newlines kept (one per line break).
   */
  readonly lines: string;
  /** `lines` with every whitespace run one space and no spaces between Chinese/Japanese characters. */
  readonly flat: string;
}

/** Builds the views of `text` that scanForThreats matches against. */
export function scanViews(params: { text: string }): ScanViews {
  const { text } = params;
  const raw = text
    .replace(/^\uFEFF/, '')
    .replace(TAG_FLAG, '\u{1F3F4}')
    .replace(EMOJI_ZWJ, '$1')
    .replace(JOINER_IN_WORD, '$1');
  const lines = text
    .replace(INVISIBLE, '')
    .normalize('NFKC')
    .toLowerCase()
    .replace(QUOTE, (c) => QUOTES[c] ?? c)
    .replace(/\\\r?\n/g, ' ')
    .replace(/\r\n?/g, '\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n\s*/g, '\n')
    .trim();
  const unmasked = unmaskLookalikes(lines);
  const flat = unmasked.replace(/\s+/g, ' ').replace(HAN_KANA_SPACE, '$1');
  return { raw, lines: unmasked, flat };
}
