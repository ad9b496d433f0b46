// Support for the profile/logs/doctor tests: captured CLI IO and profiles written straight into a temp HERMES_HOME.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';

/** A CliIO whose output is collected (shared with the CLI helper). */
export { captureIO } from '../../helpers/cli.js';

/** Writes profiles/NAME (or HERMES_HOME itself for "default") with a config.yaml and optionally a .env (mode 600). */
export function writeProfile(params: { home: string; name: string; config: unknown; dotenv?: string }): string {
  const dir = params.name === 'default' ? params.home : path.join(params.home, 'profiles', params.name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'config.yaml'), typeof params.config === 'string' ? params.config : stringify(params.config));
  if (params.dotenv !== undefined) writeFileSync(path.join(dir, '.env'), params.dotenv, { mode: 0o600 });
  return dir;
}
