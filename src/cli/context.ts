import { existsSync } from 'node:fs';
import os from 'node:os';
import { loadAppConfig } from '../app/config-schema.js';
import type { AppConfig } from '../app/config-schema.js';
import { UserFacingError } from '../core/errors.js';
import { chooseProfileName } from '../home/active-profile.js';
import { ensureProfileDirs, resolveHermesHome, resolveProfile, type Profile } from '../home/index.js';
import { createLogger, type LoggerHandle } from '../log/logger.js';
import { Redactor } from '../log/redact.js';
import type { DiskReporter } from '../util/disk-error.js';
import { println, type CliIO } from './output.js';
import { assertProfileExists } from './unknown-profile.js';

/** Global options every command accepts. */
export interface GlobalOptions {
  readonly profile?: string;
}

/** A profile with its loaded config, ready for a command. */
export interface LoadedProfile {
  readonly profile: Profile;
  readonly config: AppConfig;
  readonly redactor: Redactor;
}

/** Resolves the profile that `-p NAME` (or the default) names; a named profile that does not exist is an error listing the profiles. */
export function profileFrom(params: { options: GlobalOptions; io: CliIO }): Profile {
  const hermesHome = resolveHermesHome({ env: params.io.env, homedir: os.homedir() });
  const profile = resolveProfile({ hermesHome, name: chooseProfileName({ option: params.options.profile, env: params.io.env, hermesHome }) });
  assertProfileExists({ profile, hermesHome });
  return profile;
}

/** Loads and validates the profile's config; warnings go to stderr. Throws ConfigError (exit 78) on bad config. */
export async function loadProfile(params: { options: GlobalOptions; io: CliIO }): Promise<LoadedProfile> {
  const profile = profileFrom(params);
  const loaded = await loadAppConfig({ profile, env: params.io.env });
  for (const warning of loaded.warnings) println({ stream: params.io.stderr, text: `warning: ${warning.message}` });
  return { profile, config: loaded.config, redactor: new Redactor({ secrets: loaded.secrets }) };
}

/**
 * Like loadProfile, for commands that only read or change an existing profile: a profile whose folder does not exist
 * (a typo in --profile) is a clear error (exit 66) instead of a result for an empty, made-up profile.
 */
export async function loadExistingProfile(params: { options: GlobalOptions; io: CliIO }): Promise<LoadedProfile> {
  const profile = profileFrom(params);
  if (!existsSync(profile.dir)) {
    throw new UserFacingError({ message: `profile "${profile.name}" does not exist`, hint: '`hermes profile list` shows the profiles.', exitCode: 66 });
  }
  return loadProfile(params);
}

/**
 * Reads the profile's `mcp_servers` again from config.yaml and .env (/reload-mcp), adding any new secret to the
 * redactor before it could be logged; throws ConfigError when the config does not load.
 */
export function mcpServersRereader(params: { loaded: LoadedProfile; env: CliIO['env'] }): () => Promise<AppConfig['mcp_servers']> {
  return async () => {
    const next = await loadAppConfig({ profile: params.loaded.profile, env: params.env });
    params.loaded.redactor.add({ secrets: next.secrets });
    return next.config.mcp_servers;
  };
}

/** Opens the profile's log (creating its folders); a log file that refuses writes is reported to `disk`. */
export function openLog(params: { loaded: LoadedProfile; tty: boolean; disk?: DiskReporter }): LoggerHandle {
  const { profile, config, redactor } = params.loaded;
  ensureProfileDirs({ profile });
  return createLogger({
    profile,
    level: config.logging.level,
    redactor,
    tty: params.tty,
    maxSize: config.logging.max_size,
    maxFiles: config.logging.max_files,
    ...(params.disk ? { disk: params.disk } : {}),
  });
}
