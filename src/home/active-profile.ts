import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The file holding the sticky default profile (`hermes profile use NAME`). */
export function activeProfilePath(params: { hermesHome: string }): string {
  return path.join(params.hermesHome, 'active_profile');
}

/** The sticky default profile, if one was chosen (and the file is readable). */
export function readActiveProfile(params: { hermesHome: string }): string | undefined {
  try {
    const name = readFileSync(activeProfilePath(params), 'utf8').trim();
    return name === '' ? undefined : name;
  } catch {
    return undefined;
  }
}

/** Makes `name` the sticky default ('default' clears it). */
export function writeActiveProfile(params: { hermesHome: string; name: string }): void {
  writeFileSync(activeProfilePath(params), params.name === 'default' ? '' : `${params.name}\n`, { mode: 0o600 });
}

/** Which profile a command uses: `-p NAME`, else HERMES_PROFILE, else the sticky default, else "default". */
export function chooseProfileName(params: { option: string | undefined; env: Readonly<Record<string, string | undefined>>; hermesHome: string }): string | undefined {
  return params.option ?? (params.env['HERMES_PROFILE'] || undefined) ?? readActiveProfile({ hermesHome: params.hermesHome });
}
