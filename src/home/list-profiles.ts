import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { resolveProfile, type Profile } from './profile.js';

/** Every profile in HERMES_HOME, the default one first, then `profiles/*` by name (invalid names skipped). */
export function listProfiles(params: { hermesHome: string }): Profile[] {
  const dir = path.join(params.hermesHome, 'profiles');
  const names = ['default', ...(existsSync(dir) ? readdirSync(dir).sort() : [])];
  return names.flatMap((name) => {
    try {
      return [resolveProfile({ hermesHome: params.hermesHome, name })];
    } catch {
      return [];
    }
  });
}
