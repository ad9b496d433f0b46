import path from 'node:path';
import type { Profile } from '../../home/profile.js';
import { scanForThreats } from '../../threats/scan.js';
import { FileMemo } from '../../util/file-memo.js';
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
  const own = souls.read({ file: params.profile.soulPath, derive: scannedSoul });
  if (own !== undefined && own.text !== undefined) {
    const { finding } = own;
    if (finding === undefined) return { name: 'identity', text: own.text.trim() };
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
  return (souls.read({ file: bundledSoulPath(), derive: scannedSoul })?.text ?? fallbackIdentity).trim();
}

/** A SOUL.md's text (undefined when blank) and what the threat scan found in it. */
interface ScannedSoul {
  readonly text: string | undefined;
  readonly finding: ReturnType<typeof scanForThreats>;
}

function scannedSoul(text: string): ScannedSoul {
  if (text.trim() === '') return { text: undefined, finding: undefined };
  return { text, finding: scanForThreats({ text, source: 'context-file' }) };
}

/** SOUL.md files read and scanned, again only once they change (every new session's prompt starts with one). */
const souls = new FileMemo<ScannedSoul>();
