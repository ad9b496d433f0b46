import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';

/** How a model's text is counted: one of gpt-tokenizer's encodings, or a characters-per-token ratio. */
export type TokenEncoding = 'o200k_base' | 'cl100k_base' | 'ratio';

/** Characters per token for models whose tokenizer is unknown: low on purpose, so the estimate errs high. */
export const FALLBACK_CHARS_PER_TOKEN = 3.5;

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

/** Tokens of one text in an encoding. */
export function countText(params: { text: string; encoding: TokenEncoding }): number {
  const { text, encoding } = params;
  if (text === '') return 0;
  switch (encoding) {
    case 'o200k_base':
      return countO200k(text, PLAIN);
    case 'cl100k_base':
      return countCl100k(text, PLAIN);
    case 'ratio':
      return Math.ceil(text.length / FALLBACK_CHARS_PER_TOKEN);
  }
}
