import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../util/package-root.js';
import { DEFAULT_PROFILE_NAME, type Profile } from './profile.js';

/**
 * Gives a default profile that was never used (no config.yaml, no state.db) the profile template as its config.yaml,
 * so the owner has a file to edit; the default profile keeps the default port 8787 (named ones get 0, a free port).
 * Anything already there is left alone.
 */
export function seedDefaultConfig(params: { profile: Profile }): void {
  const { profile } = params;
  if (profile.name !== DEFAULT_PROFILE_NAME || existsSync(profile.configPath) || existsSync(profile.dbPath)) return;
  const template = readFileSync(path.join(packageRoot(), 'profiles', 'config.yaml'), 'utf8');
  writeFileSync(profile.configPath, template.replace(/^(\s+port:) 0$/m, '$1 8787'), { flag: 'wx' });
}
