import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UserFacingError } from '../core/errors.js';
import { resolveHermesHome, resolveProfile, type Profile } from '../home/index.js';
import type { CliIO } from './output.js';

/** Names that would be confusing or clash with hermes's own files. */
const reservedNames = new Set(['default', 'profiles', 'active', 'active_profile', 'current', 'all', 'hermes', 'logs', 'cache']);

/** HERMES_HOME for this command's environment. */
export function hermesHomeOf(params: { io: CliIO }): string {
  return resolveHermesHome({ env: params.io.env, homedir: os.homedir() });
}

/** Refuses the names `profile create` refuses ("default" and other reserved names, invalid patterns); the profile otherwise. */
export function namedProfile(params: { hermesHome: string; name: string }): Profile {
  if (reservedNames.has(params.name)) {
    throw new UserFacingError({ message: `"${params.name}" is a reserved name`, hint: 'Pick another, e.g. "work" or "personal".', exitCode: 64 });
  }
  return resolveProfile(params);
}

/** A profile a new one can be made as: a valid, unreserved name that does not exist yet. */
export function newProfile(params: { hermesHome: string; name: string }): Profile {
  const profile = namedProfile(params);
  if (existsSync(profile.dir)) throw new UserFacingError({ message: `profile "${params.name}" already exists (${profile.dir})`, hint: 'Pick another name, or `hermes profile list`.', exitCode: 73 });
  return profile;
}

/** An existing profile (any valid name, "default" included); a clear error when there is no such profile. */
export function existingProfile(params: { hermesHome: string; name: string }): Profile {
  const profile = resolveProfile(params);
  if (!existsSync(profile.dir)) throw new UserFacingError({ message: `profile "${params.name}" does not exist`, hint: '`hermes profile list` shows the profiles.', exitCode: 66 });
  return profile;
}

/** The description stored by `profile create --description`, or ''. */
export function profileDescription(params: { profile: Profile }): string {
  try {
    return (JSON.parse(readFileSync(path.join(params.profile.dir, 'profile.json'), 'utf8')) as { description?: string }).description ?? '';
  } catch {
    return '';
  }
}
