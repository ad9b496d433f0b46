import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Profile } from '../../home/profile.js';
import { scanForThreats } from '../../threats/scan.js';
import { packageRoot } from '../../util/package-root.js';
import type { PromptLayer, PromptLogger } from './types.js';

/** Used when neither the profile's SOUL.md nor the bundled one can be read. */
const fallbackIdentity = 'You are a helpful personal assistant.';

/**
 * The identity layer: the profile's SOUL.md, else the bundled profiles/SOUL.md. The profile's file passes the
 * threat scan like every file that enters the prompt (it is often copied from elsewhere); one that matches is
 * replaced by the bundled identity and a `[BLOCKED: SOUL.md: <reason>]` line, and logged when a logger is given.
 */
export function identityLayer(params: { profile: Profile; logger?: PromptLogger }): PromptLayer {
  const own = readSoul({ file: params.profile.soulPath });
  if (own !== undefined) {
    const finding = scanForThreats({ text: own, source: 'context-file' });
    if (finding === undefined) return { name: 'identity', text: own.trim() };
    params.logger?.warn({ file: params.profile.soulPath, threat: finding.id, category: finding.category }, `SOUL.md blocked: ${finding.reason}; the bundled identity is used`);
    return { name: 'identity', text: `${bundledIdentity()}\n\n[BLOCKED: SOUL.md: ${finding.reason}]` };
  }
  return { name: 'identity', text: bundledIdentity() };
}

/** The SOUL.md shipped with hermes (what new profiles get). */
export function bundledSoulPath(): string {
  return path.join(packageRoot(), 'profiles', 'SOUL.md');
}

/** The bundled SOUL.md's text, trimmed (the fallback line when it cannot be read). */
function bundledIdentity(): string {
  return (readSoul({ file: bundledSoulPath() }) ?? fallbackIdentity).trim();
}

/** A SOUL.md's text, or undefined when it is missing, unreadable or blank. */
function readSoul(params: { file: string }): string | undefined {
  try {
    const text = readFileSync(params.file, 'utf8');
    return text.trim() !== '' ? text : undefined;
  } catch {
    // missing or unreadable: the next one is used
    return undefined;
  }
}
