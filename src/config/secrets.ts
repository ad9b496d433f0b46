import { looksSecretKey } from './secret-keys.js';

/**
 * The strings to redact: every non-empty string in the config stored under a secret-looking key (token, key,
 * secret, password...) plus every non-empty value of the profile's .env, except a .env value whose name is not
 * secret-looking (IMAP_HOST) and that the config uses only as the whole value of non-secret keys
 * (platforms.email.imap_host: ${IMAP_HOST}): a host name is shown, so sender checks and connections can be debugged.
 */
export function collectSecrets(params: { config: unknown; envFileValues: Readonly<Record<string, string>> }): string[] {
  const found = new Set<string>();
  collectFromTree(params.config, false, found);
  const plain = new Set<string>();
  collectPlain(params.config, plain);
  for (const [name, value] of Object.entries(params.envFileValues)) {
    if (value === '' || (plain.has(value) && !looksSecretKey({ key: name }))) continue;
    found.add(value);
  }
  return [...found];
}

/** Adds the strings stored under keys that do not look secret (anywhere outside a secret-looking subtree). */
function collectPlain(node: unknown, found: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) collectPlain(item, found);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (looksSecretKey({ key })) continue;
    if (typeof value === 'string' && value !== '') found.add(value);
    else collectPlain(value, found);
  }
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
