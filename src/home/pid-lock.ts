import { openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { UserFacingError } from '../gateway/errors.js';
import type { Profile } from './profile.js';

/** True when a process with this pid exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** True when a process with this pid exists (also one we may not signal). */
export function processAlive(params: { pid: number }): boolean {
  return alive(params.pid);
}

/** The pid in a profile's pid file when that process is still running, else null. */
export function runningPid(params: { profile: Profile }): number | null {
  try {
    const pid = Number.parseInt(readFileSync(params.profile.pidPath, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Makes this process the profile's one gateway: writes gateway.pid, or fails clearly when another live
 * gateway holds it. A pid file left by a killed process is taken over.
 */
export function acquirePidLock(params: { profile: Profile }): { release: () => void } {
  const { profile } = params;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(profile.pidPath, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      let released = false;
      return {
        release: () => {
          if (released) return;
          released = true;
          if (runningPid({ profile }) === process.pid) unlinkSync(profile.pidPath);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const other = runningPid({ profile });
      if (other !== null && other !== process.pid) {
        throw new UserFacingError({
          message: `a gateway for profile "${profile.name}" is already running (pid ${other})`,
          hint: `Stop it first (kill ${other}, or systemctl --user stop hermes-gateway@${profile.name}), then start again.`,
          exitCode: 75,
        });
      }
      unlinkSync(profile.pidPath);
    }
  }
  throw new UserFacingError({ message: `cannot take the pid file ${profile.pidPath}`, hint: 'Remove it by hand if no gateway runs.' });
}
