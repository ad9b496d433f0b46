import { existsSync } from 'node:fs';
import { UserFacingError } from '../core/errors.js';
import { listProfiles } from '../home/list-profiles.js';
import { DEFAULT_PROFILE_NAME, type Profile } from '../home/profile.js';

/** sysexits EX_NOINPUT: what the command should work on does not exist. */
const NO_INPUT_EXIT_CODE = 66;

/**
 * Refuses a named profile whose folder does not exist (`hermes -p nosuch config validate` must not answer "valid"
 * for a made-up, empty profile), listing the profiles there are. The default profile is HERMES_HOME itself and
 * always usable; `profile create` makes new profiles without coming here.
 */
export function assertProfileExists(params: { profile: Profile; hermesHome: string }): void {
  const { profile } = params;
  if (profile.name === DEFAULT_PROFILE_NAME || existsSync(profile.dir)) return;
  const names = listProfiles({ hermesHome: params.hermesHome })
    .filter((other) => other.name === DEFAULT_PROFILE_NAME || existsSync(other.dir))
    .map((other) => other.name);
  throw new UserFacingError({
    message: `profile "${profile.name}" does not exist; the profiles are: ${names.join(', ')}`,
    hint: `Use one of them with -p NAME, or create it: \`hermes profile create ${profile.name}\`.`,
    exitCode: NO_INPUT_EXIT_CODE,
  });
}
