import { existsSync, readFileSync } from 'node:fs';
import dotenv from 'dotenv';
import { isMap, isSeq, parseDocument, type Document } from 'yaml';
import { looksSecretKey } from '../config/secret-keys.js';
import type { Profile } from '../home/profile.js';

/** The variable the OpenAI SDK (and config loading) falls back to for model.api_key. */
const FALLBACK_KEY_ENV = 'OPENAI_API_KEY';

/** What a new profile takes over from another profile's model section. */
export interface InheritedModel {
  /** The `model:` mapping (comments kept), without its keys unless secrets were asked for. */
  readonly node: unknown;
  /** The .env lines of the variables the inherited model section uses: its keys' only with secrets. */
  readonly envLines: readonly string[];
}

/** Removes every secret-looking key (api_key, api_keys, ...) below a YAML node, at any depth (fallbacks too). */
function dropSecrets(node: unknown): void {
  if (isMap(node)) {
    for (const pair of [...node.items]) {
      const key = pair.key !== null && typeof pair.key === 'object' && 'value' in pair.key ? String(pair.key.value) : String(pair.key);
      if (looksSecretKey({ key })) node.delete(pair.key);
      else dropSecrets(pair.value);
    }
  } else if (isSeq(node)) {
    for (const item of node.items) dropSecrets(item);
  }
}

/** The `${NAME}` variables a text refers to. */
function referencedVariables(text: string): Set<string> {
  return new Set([...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1] ?? ''));
}

/**
 * The model section a new profile inherits from `from` (the default profile, or the one cloned): base_url, name and
 * the other model settings, with comments, and the .env lines of the non-secret variables they use (MODEL_URL). Its
 * keys (model.api_key, api_keys, a fallback's key) only with `withSecrets`, which also copies the .env lines they use
 * (and OPENAI_API_KEY, the fallback). Undefined when `from` has no config.yaml or no model section.
 */
export function inheritedModel(params: { from: Profile; withSecrets: boolean }): InheritedModel | undefined {
  const { from, withSecrets } = params;
  if (!existsSync(from.configPath)) return undefined;
  const doc: Document = parseDocument(readFileSync(from.configPath, 'utf8'));
  const model: unknown = doc.get('model', true);
  if (!isMap(model)) return undefined;
  const node = model.clone();
  if (!withSecrets) dropSecrets(node);
  // The variables the inherited settings use: without secrets only those whose names do not look secret (a
  // `base_url: ${MODEL_URL}`), which the new profile needs to load at all; with secrets every one, and the fallback key.
  const wanted = new Set([...referencedVariables(JSON.stringify(node.toJSON()))].filter((name) => withSecrets || !looksSecretKey({ key: name })));
  if (withSecrets) wanted.add(FALLBACK_KEY_ENV);
  const envText = existsSync(from.envPath) ? readFileSync(from.envPath, 'utf8') : '';
  const envLines = envText.split('\n').filter((line) => {
    const parsed = dotenv.parse(line);
    return Object.keys(parsed).some((name) => wanted.has(name));
  });
  return { node, envLines };
}

/** config.yaml text with its `model:` section replaced by `model` (the rest, comments included, as it was). */
export function withModel(params: { text: string; model: unknown }): string {
  const doc = parseDocument(params.text);
  doc.set('model', params.model);
  return doc.toString();
}
