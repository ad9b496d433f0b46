import path from 'node:path';
import { UserFacingError } from '../core/errors.js';

/** Name of the profile that lives directly in HERMES_HOME. */
export const DEFAULT_PROFILE_NAME = 'default';

/** What a named profile's name must look like. */
export const PROFILE_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** Every path that belongs to one profile. Passed around explicitly; there is no global "current profile". */
export interface Profile {
  /** Profile name ("default" for the one living directly in HERMES_HOME). */
  readonly name: string;
  /** The HERMES_HOME this profile was resolved in. */
  readonly hermesHome: string;
  /** The profile's own directory (HERMES_HOME itself for the default profile). */
  readonly dir: string;
  /** config.yaml */
  readonly configPath: string;
  /** .env with this profile's secrets */
  readonly envPath: string;
  /** state.db (SQLite store) */
  readonly dbPath: string;
  /** logs/ */
  readonly logsDir: string;
  /** logs/gateway.log, the current log file */
  readonly logFile: string;
  /** cache/ (downloaded media and the like) */
  readonly cacheDir: string;
  /** workspace/ (default working directory for tools) */
  readonly workspaceDir: string;
  /** memories/ */
  readonly memoriesDir: string;
  /** skills/ */
  readonly skillsDir: string;
  /** SOUL.md (the agent's persona) */
  readonly soulPath: string;
  /** gateway.pid */
  readonly pidPath: string;
}

/** True when `name` is a valid profile name (or "default"). */
export function isValidProfileName(params: { name: string }): boolean {
  return params.name === DEFAULT_PROFILE_NAME || PROFILE_NAME_PATTERN.test(params.name);
}

/**
 * The paths of profile `name` inside `hermesHome`: undefined or "default" → HERMES_HOME itself,
 * anything else → `<hermesHome>/profiles/<name>`. Throws a UserFacingError for an invalid name.
 */
export function resolveProfile(params: { hermesHome: string; name?: string | undefined }): Profile {
  const name = params.name ?? DEFAULT_PROFILE_NAME;
  const hermesHome = path.resolve(params.hermesHome);
  if (!isValidProfileName({ name })) {
    throw new UserFacingError({
      message: `invalid profile name ${JSON.stringify(name)}`,
      hint:
        'Profile names are 1-64 characters of lowercase letters, digits, "-" and "_", ' +
        'starting with a letter or digit (for example "work" or "personal").',
      exitCode: 64,
    });
  }
  const dir = name === DEFAULT_PROFILE_NAME ? hermesHome : path.join(hermesHome, 'profiles', name);
  const logsDir = path.join(dir, 'logs');
  return Object.freeze({
    name,
    hermesHome,
    dir,
    configPath: path.join(dir, 'config.yaml'),
    envPath: path.join(dir, '.env'),
    dbPath: path.join(dir, 'state.db'),
    logsDir,
    logFile: path.join(logsDir, 'gateway.log'),
    cacheDir: path.join(dir, 'cache'),
    workspaceDir: path.join(dir, 'workspace'),
    memoriesDir: path.join(dir, 'memories'),
    skillsDir: path.join(dir, 'skills'),
    soulPath: path.join(dir, 'SOUL.md'),
    pidPath: path.join(dir, 'gateway.pid'),
  });
}
