import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Profile } from '../../home/profile.js';
import { packageRoot } from '../../util/package-root.js';
import type { PromptLayer } from './types.js';

/** Used when neither the profile's SOUL.md nor the bundled one can be read. */
const fallbackIdentity = 'You are a helpful personal assistant.';

/** The identity layer: the profile's SOUL.md, else the bundled profiles/SOUL.md. */
export function identityLayer(params: { profile: Profile }): PromptLayer {
  const soul = readFirst({ paths: [params.profile.soulPath, bundledSoulPath()] }) ?? fallbackIdentity;
  return { name: 'identity', text: soul.trim() };
}

/** The SOUL.md shipped with hermes (what new profiles get). */
export function bundledSoulPath(): string {
  return path.join(packageRoot(), 'profiles', 'SOUL.md');
}

/** The first of `paths` that can be read and is not blank. */
function readFirst(params: { paths: readonly string[] }): string | undefined {
  for (const file of params.paths) {
    try {
      const text = readFileSync(file, 'utf8');
      if (text.trim() !== '') return text;
    } catch {
      // missing or unreadable: try the next one
    }
  }
  return undefined;
}
