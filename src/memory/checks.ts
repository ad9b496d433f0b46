import { scanForThreats } from '../threats/scan.js';
import { hasSeparatorLine } from './format.js';

/** Tells whether a text holds one of the profile's secrets (the gateway passes its SecretGuard's view). */
export type ContainsSecret = (text: string) => boolean;

/**
 * Why `text` may not become (part of) a memory entry, or undefined when it may: a line holding only `§` (it would
 * read back as several entries), a threat-scan finding (memory enters every future system prompt), or a secret.
 * The text itself is never repeated in the reason.
 */
export function contentProblem(params: { text: string; fileName: string; containsSecret: ContainsSecret }): string | undefined {
  if (hasSeparatorLine({ text: params.text })) {
    return `it has a line holding only "§", which separates entries in ${params.fileName}; save each fact as its own entry`;
  }
  const finding = scanForThreats({ text: params.text, source: 'memory' });
  if (finding !== undefined) {
    return `memory goes into every future system prompt, and this text looks like an attack on it: ${finding.reason} (${finding.id})`;
  }
  if (params.containsSecret(params.text)) {
    return "it contains one of the profile's secrets (an API key, token or password); memory goes into every future prompt, so secrets never belong there";
  }
  return undefined;
}
