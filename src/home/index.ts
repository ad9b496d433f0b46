/** HERMES_HOME and profile resolution. */
export { resolveHermesHome, type EnvSnapshot } from './hermes-home.js';
export {
  resolveProfile,
  isValidProfileName,
  DEFAULT_PROFILE_NAME,
  PROFILE_NAME_PATTERN,
  type Profile,
} from './profile.js';
export { ensureProfileDirs } from './ensure-dirs.js';
