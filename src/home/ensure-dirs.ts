import { chmodSync, mkdirSync } from 'node:fs';
import { seedDefaultConfig } from './default-config.js';
import type { Profile } from './profile.js';

/** Permissions for the profile directory and its subfolders: owner only (they hold secrets and chats). */
const PRIVATE_DIR_MODE = 0o700;

/**
 * Creates the profile directory (mode 0o700, also when it already existed) and its
 * logs/, cache/, workspace/, memories/ and skills/ subfolders; a default profile never used before gets a config.yaml
 * (seedDefaultConfig). Synchronous: it runs once at startup.
 */
export function ensureProfileDirs(params: { profile: Profile }): void {
  const { profile } = params;
  mkdirSync(profile.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(profile.dir, PRIVATE_DIR_MODE);
  const subdirs = [profile.logsDir, profile.cacheDir, profile.workspaceDir, profile.memoriesDir, profile.skillsDir];
  for (const dir of subdirs) {
    mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  }
  seedDefaultConfig({ profile });
}
