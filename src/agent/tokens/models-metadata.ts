/**
 * Fields OpenAI-compatible servers use for a model's context length in GET /models, in order of preference:
 * OpenRouter, Together and vLLM-style `context_length`; vLLM `max_model_len`; Groq `context_window`; LM Studio's REST API
 * `loaded_context_length` (what the loaded model runs with, ahead of its `max_context_length`); Mistral and
 * LM Studio `max_context_length`; LiteLLM `max_input_tokens`; `context_size`; llama.cpp and llama-swap `meta.n_ctx` (the
 * server's own context, not `meta.n_ctx_train`: a server often runs with less than the model was trained for);
 * OpenRouter `top_provider.context_length`.
 */
const FIELDS: readonly (readonly string[])[] = [
  ['context_length'],
  ['max_model_len'],
  ['context_window'],
  ['loaded_context_length'],
  ['max_context_length'],
  ['max_input_tokens'],
  ['context_size'],
  ['meta', 'n_ctx'],
  ['top_provider', 'context_length'],
];

function at(params: { value: unknown; path: readonly string[] }): unknown {
  let value = params.value;
  for (const key of params.path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

function tokens(value: unknown): number | undefined {
  const number = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 256 && number <= 100_000_000 ? number : undefined;
}

/** The GET /models entry for `model`: by id, then by alias, else the only entry (a single-model server) unless `exact`. */
function modelEntry(params: { body: unknown; model: string; exact?: boolean | undefined }): unknown {
  const data = at({ value: params.body, path: ['data'] });
  if (!Array.isArray(data)) return undefined;
  const aliases = (item: unknown): unknown => at({ value: item, path: ['aliases'] });
  return (
    data.find((item: unknown) => at({ value: item, path: ['id'] }) === params.model) ??
    data.find((item: unknown) => {
      const names = aliases(item);
      return Array.isArray(names) && names.includes(params.model);
    }) ??
    // A single-model server (llama.cpp, vLLM) answers to any name; its one entry is the model.
    (data.length === 1 && params.exact !== true ? data[0] : undefined)
  );
}

/**
 * The context length a GET /models answer gives for `model` (the entry whose `id` or one of whose `aliases` is the
 * model's name, or the only entry unless `exact`), or undefined when the answer is not a model list, does not list the model, or
 * carries no usable figure.
 */
export function contextLengthFromModels(params: { body: unknown; model: string; exact?: boolean }): number | undefined {
  const entry = modelEntry(params);
  if (entry === undefined) return undefined;
  for (const path of FIELDS) {
    const found = tokens(at({ value: entry, path }));
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Whether a GET /models answer says `model` takes images: OpenRouter's `architecture.input_modalities` (or its older
 * `architecture.modality`, "text+image->text"), LiteLLM's `supports_vision`, a `capabilities` list or object naming
 * vision; undefined when the entry is missing or says nothing about it.
 */
export function visionFromModels(params: { body: unknown; model: string; exact?: boolean }): boolean | undefined {
  const entry = modelEntry(params);
  if (entry === undefined) return undefined;
  const inputs = at({ value: entry, path: ['architecture', 'input_modalities'] });
  if (Array.isArray(inputs)) return inputs.includes('image');
  const modality = at({ value: entry, path: ['architecture', 'modality'] });
  if (typeof modality === 'string' && modality.includes('->')) return modality.split('->')[0]?.includes('image') ?? false;
  for (const path of [['supports_vision'], ['model_info', 'supports_vision'], ['capabilities', 'vision']]) {
    const flag = at({ value: entry, path });
    if (typeof flag === 'boolean') return flag;
  }
  const capabilities = at({ value: entry, path: ['capabilities'] });
  if (Array.isArray(capabilities)) return capabilities.includes('vision');
  return undefined;
}
