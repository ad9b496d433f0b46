import { type LoadedConfig } from '../config/load.js';
import type { AppParsedConfig } from '../app/config-schema.js';
import { loadAppConfig } from '../app/config-schema.js';
import { UserFacingError } from '../core/errors.js';
import type { EnvSnapshot } from '../home/hermes-home.js';
import type { Profile } from '../home/profile.js';
import { line, type CheckLine } from '../core/check-line.js';
import { errorMessage } from '../util/error-text.js';

/** What the config check found: its lines, and the config when it is usable by the checks that need one. */
export interface ConfigCheckResult {
  readonly lines: CheckLine[];
  readonly loaded: LoadedConfig<AppParsedConfig> | undefined;
}

/** config.yaml and .env load and validate; warnings become "!" lines. A broken config is a ✗ with its own hint. */
export async function configCheck(params: { profile: Profile; env: EnvSnapshot }): Promise<ConfigCheckResult> {
  const { profile } = params;
  let loaded: LoadedConfig<AppParsedConfig>;
  try {
    loaded = await loadAppConfig({ profile, env: params.env });
  } catch (error) {
    return { lines: [failure(error)], loaded: undefined };
  }
  const where = loaded.sources.configFile.existed ? `${profile.configPath} is valid` : `no ${profile.configPath}: all defaults`;
  const lines = [line.ok('config', where), ...loaded.warnings.map((warning) => line.warn('config', warning.message))];
  return { lines, loaded };
}

/** A ✗ config line from a thrown error (its message and hint when it is meant for the user). */
function failure(error: unknown): CheckLine {
  if (error instanceof UserFacingError) return line.fail('config', error.message, error.hint);
  return line.fail('config', `cannot be loaded: ${errorMessage(error)}`, 'Run `hermes config validate` for details.');
}
