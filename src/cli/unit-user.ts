import { readFileSync, statSync } from 'node:fs';
import os from 'node:os';

/** The account name of a uid from /etc/passwd, or undefined when it is not listed there. */
function accountName(params: { uid: number; passwd: string }): string | undefined {
  for (const line of params.passwd.split('\n')) {
    const [name, , uid] = line.split(':');
    if (name && uid !== undefined && Number(uid) === params.uid) return name;
  }
  return undefined;
}

/**
 * Who a system unit runs as (`User=`): the owner of HERMES_HOME (the gateway must own its files), else the
 * user who ran sudo, else the current user.
 */
export function systemUnitUser(params: { hermesHome: string; env: Readonly<Record<string, string | undefined>>; passwdPath?: string }): string {
  try {
    const uid = statSync(params.hermesHome).uid;
    const name = accountName({ uid, passwd: readFileSync(params.passwdPath ?? '/etc/passwd', 'utf8') });
    if (name !== undefined) return name;
  } catch {
    // HERMES_HOME not there yet, or no /etc/passwd: fall back below
  }
  return params.env['SUDO_USER'] ?? os.userInfo().username;
}
