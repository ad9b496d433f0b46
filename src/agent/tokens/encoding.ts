import { createRequire } from 'node:module';

/** How a model's text is counted: one of gpt-tokenizer's encodings, or a bytes-per-token ratio. */
export type TokenEncoding = 'o200k_base' | 'cl100k_base' | 'ratio';

/** An encoding gpt-tokenizer counts exactly. */
export type ExactEncoding = Exclude<TokenEncoding, 'ratio'>;

/**
 * How a text is measured: an encoding, or its UTF-8 bytes — an upper bound of any byte-level BPE count (every token
 * of o200k and cl100k stands for at least one byte), used to tell cheaply that a request is far from a limit.
 */
export type CountMethod = TokenEncoding | 'utf8_bytes';

/**
 * UTF-8 bytes per token for models whose tokenizer is unknown (and for every cheap estimate): low on purpose, so the
 * estimate errs high. Bytes, not characters: English is ~4 characters (bytes) a token, while a CJK character is 3
 * bytes and ~1 token, so a characters-per-token ratio counted Chinese ~3.5× short and bytes count it ~0.86 a character.
 */
export const FALLBACK_BYTES_PER_TOKEN = 3.5;

/**
 * The encoding for a model name (a provider prefix such as "openai/" is ignored): o200k for gpt-4o, gpt-4.1,
 * gpt-4.5, gpt-5, o1/o3/o4 and gpt-oss; cl100k for gpt-3.5 and gpt-4 (turbo); the ratio for anything else.
 */
export function encodingFor(params: { model: string }): TokenEncoding {
  const name = params.model.toLowerCase().split('/').pop() ?? '';
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|chatgpt-4o|gpt-oss|o[134](-|$))/.test(name)) return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5|gpt-35|text-embedding-3|text-embedding-ada)/.test(name)) return 'cl100k_base';
  return 'ratio';
}

/** Special-token strings in a text are counted as plain text (the API never treats user text as special tokens). */
const PLAIN = { disallowedSpecial: new Set<string>() };

type CountTokens = (text: string, options: typeof PLAIN) => number;

/**
 * gpt-tokenizer's tables cost about 35 MB (cl100k) to 60 MB (o200k) of memory and 0.3 s to load, so an encoding is
 * loaded the first time a text is counted with it, not at start-up (the token meter counts exactly only near a limit).
 */
const loadCjs = createRequire(import.meta.url);
const counters = new Map<ExactEncoding, CountTokens>();

function counterFor(params: { encoding: ExactEncoding }): CountTokens {
  const known = counters.get(params.encoding);
  if (known !== undefined) return known;
  const loaded = loadCjs(`gpt-tokenizer/encoding/${params.encoding}`) as { countTokens: CountTokens };
  counters.set(params.encoding, loaded.countTokens);
  return loaded.countTokens;
}

/** True once the encoding's tables are in memory (counting with it costs no load). */
export function encodingLoaded(params: { encoding: ExactEncoding }): boolean {
  return counters.has(params.encoding);
}

/** Tokens of one text in an encoding (or its UTF-8 bytes). */
export function countText(params: { text: string; encoding: CountMethod }): number {
  const { text, encoding } = params;
  if (text === '') return 0;
  switch (encoding) {
    case 'ratio':
      return Math.ceil(Buffer.byteLength(text, 'utf8') / FALLBACK_BYTES_PER_TOKEN);
    case 'utf8_bytes':
      return Buffer.byteLength(text, 'utf8');
    default:
      return counterFor({ encoding })(text, PLAIN);
  }
}
