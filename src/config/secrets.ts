import { looksSecretKey } from './secret-keys.js';

/**
 * The strings to redact: every non-empty value of the profile's .env plus every non-empty string
 * in the config stored under a secret-looking key (token, key, secret, password, auth...).
 */
export function collectSecrets(params: { config: unknown; envFileValues: Readonly<Record<string, string>> }): string[] {
  const found = new Set<string>();
  for (const value of Object.values(params.envFileValues)) {
    if (value !== '') found.add(value);
  }
  collectFromTree(params.config, false, found);
  return [...found];
}

/** Adds strings found under secret-looking keys of a config subtree. */
function collectFromTree(node: unknown, underSecretKey: boolean, found: Set<string>): void {
  if (typeof node === 'string') {
    if (underSecretKey && node !== '') found.add(node);
    return;
  }
  if (Array.isArray(node)) {
    for (const item of node) collectFromTree(item, underSecretKey, found);
    return;
  }
  if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      collectFromTree(value, underSecretKey || looksSecretKey({ key }), found);
    }
  }
}
