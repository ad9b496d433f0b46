import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type LoadedConfig } from '../../../src/config/load.js';
import { loadAppConfig, type AppParsedConfig } from '../../../src/app/config-schema.js';
import { resolveProfile, type Profile } from '../../../src/home/profile.js';

/** A throwaway profile directory with optional config.yaml and .env contents. */
export function tempProfile(params: { config?: string; dotenv?: string }): { profile: Profile; cleanup: () => void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
  const profile = resolveProfile({ hermesHome: root });
  if (params.config !== undefined) fs.writeFileSync(profile.configPath, params.config);
  if (params.dotenv !== undefined) fs.writeFileSync(profile.envPath, params.dotenv);
  return { profile, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** Loads a config from a throwaway profile; returns it with the config.yaml path (the profile is removed after). */
export async function loadTempConfig(config: string): Promise<{ loaded: LoadedConfig<AppParsedConfig>; configPath: string }> {
  const { profile, cleanup } = tempProfile({ config });
  try {
    return { loaded: await loadAppConfig({ profile, env: {} }), configPath: profile.configPath };
  } finally {
    cleanup();
  }
}
