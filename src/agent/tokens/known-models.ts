/** Context length used when neither the config nor the endpoint tells it, and the model is not in the table. */
export const DEFAULT_CONTEXT_LENGTH = 32_768;

/**
 * Context lengths of well-known models, by name prefix (longest prefix wins; a provider prefix such as "openai/"
 * is ignored). Published figures, rounded down where a provider varies.
 */
const KNOWN: readonly (readonly [prefix: string, tokens: number])[] = [
  ['gpt-4o', 128_000],
  ['chatgpt-4o', 128_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-4.5', 128_000],
  ['gpt-4-turbo', 128_000],
  ['gpt-4-1106', 128_000],
  ['gpt-4-0125', 128_000],
  ['gpt-4-32k', 32_768],
  ['gpt-4', 8_192],
  ['gpt-3.5-turbo', 16_385],
  ['gpt-5', 400_000],
  ['gpt-oss', 131_072],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4', 200_000],
  ['claude', 200_000],
  ['gemini', 1_048_576],
  ['deepseek', 128_000],
];

/** The table's context length for a model name, or undefined when the model is not in it. */
export function knownContextLength(params: { model: string }): number | undefined {
  const name = params.model.toLowerCase().split('/').pop() ?? '';
  let best: readonly [string, number] | undefined;
  for (const entry of KNOWN) {
    if (name.startsWith(entry[0]) && (best === undefined || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1];
}
