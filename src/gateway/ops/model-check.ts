import type { GatewayConfig } from '../../config/schema.js';

const officialHost = 'api.openai.com';

/**
 * Why the configured model cannot be reached, or null when it looks usable: the official API without a key
 * is the one case we can tell before calling it.
 */
export function modelProblem(params: { config: GatewayConfig; configPath: string; envPath: string }): string | null {
  const { model } = params.config;
  if ((model.api_key !== undefined && model.api_key !== '') || model.api_keys.length > 0) return null;
  let host = '';
  try {
    host = new URL(model.base_url).host;
  } catch {
    return `model.base_url "${model.base_url}" in ${params.configPath} is not a URL; set it to an OpenAI-compatible endpoint such as http://127.0.0.1:11434/v1`;
  }
  if (host !== officialHost) return null;
  return [
    'No model is configured: the OpenAI API needs a key.',
    `Set OPENAI_API_KEY=sk-... in ${params.envPath} and "api_key: \${OPENAI_API_KEY}" under model: in ${params.configPath},`,
    'or point model.base_url at a local OpenAI-compatible server (Ollama: http://127.0.0.1:11434/v1, llama.cpp, vLLM).',
  ].join('\n');
}

/** "name @ host" for status lines (never the key). */
export function modelLabel(params: { config: GatewayConfig }): string {
  const { model } = params.config;
  let host = model.base_url;
  try {
    host = new URL(model.base_url).host;
  } catch {
    // keep the raw value
  }
  return `${model.name} @ ${host}`;
}
