import { statSync, type Stats } from 'node:fs';
import type { Profile } from '../home/profile.js';
import { line, type CheckLine } from '../core/check-line.js';

/** "0755". */
function octal(mode: number): string {
  return (mode & 0o777).toString(8).padStart(4, '0');
}

/** stat, or undefined when the path does not exist (other errors too: the check reports them as missing/unreadable). */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** A folder exists, is a folder, and is not writable by group or others. */
function privateDirCheck(params: { name: string; dir: string; create: string }): CheckLine {
  const { name, dir } = params;
  const stat = statOf(dir);
  if (stat === undefined) return line.fail(name, `${dir} does not exist`, params.create);
  if (!stat.isDirectory()) return line.fail(name, `${dir} is not a folder`, `Move the file away, then: ${params.create}`);
  if ((stat.mode & 0o022) !== 0) {
    return line.fail(name, `${dir} is writable by group/others (mode ${octal(stat.mode)}); others could change its config or read its secrets`, `chmod go-w ${dir} (or chmod 700 ${dir})`);
  }
  return line.ok(name, `${dir} (mode ${octal(stat.mode)})`);
}

/** HERMES_HOME and the profile's folder exist and are not group/world-writable (one line for the default profile). */
export function folderChecks(params: { profile: Profile }): CheckLine[] {
  const { profile } = params;
  const create = profile.name === 'default' ? `mkdir -m 700 -p ${profile.dir}` : `hermes profile create ${profile.name}`;
  const home = privateDirCheck({ name: 'HERMES_HOME', dir: profile.hermesHome, create: `mkdir -m 700 -p ${profile.hermesHome}` });
  if (profile.dir === profile.hermesHome) return [home];
  return [home, privateDirCheck({ name: 'profile folder', dir: profile.dir, create })];
}

/** The profile's .env (its secrets) is readable by the owner only. A missing .env is fine. */
export function envFileCheck(params: { profile: Profile }): CheckLine {
  const { envPath } = params.profile;
  const stat = statOf(envPath);
  if (stat === undefined) return line.ok('.env', `none (optional: KEY=value lines for secrets, mode 600, at ${envPath})`);
  if (!stat.isFile()) return line.fail('.env', `${envPath} is not a file`, `Remove it and create a text file of KEY=value lines (chmod 600 ${envPath}).`);
  if ((stat.mode & 0o077) !== 0) {
    return line.fail('.env', `${envPath} can be read or written by group/others (mode ${octal(stat.mode)}); it holds this profile's secrets`, `chmod 600 ${envPath}`);
  }
  return line.ok('.env', `${envPath} (mode ${octal(stat.mode)})`);
}
