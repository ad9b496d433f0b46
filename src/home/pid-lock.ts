import { closeSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { UserFacingError } from '../core/errors.js';
import { diskErrorKind } from '../util/disk-error.js';
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

/**
 * When the process started, in clock ticks since boot (/proc/PID/stat field 22); undefined where there is no
 * /proc. Together with the pid it names one process: a pid reused after a crash or reboot has another start.
 */
export function processStartTicks(params: { pid: number }): string | undefined {
  try {
    const stat = readFileSync(`/proc/${params.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from 3 (state) on; comm may hold spaces
    const ticks = fields[22 - 3];
    return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

/** What gateway.pid says: the pid and, when it was recorded, that process's start (see processStartTicks). */
export function readPidFile(params: { profile: Profile }): { pid: number; start?: string } | null {
  try {
    const [first, second] = readFileSync(params.profile.pidPath, 'utf8').split('\n');
    const pid = Number.parseInt(first?.trim() ?? '', 10);
    if (!Number.isInteger(pid) || pid <= 0) return null;
    const start = /^start (\d+)$/.exec(second?.trim() ?? '')?.[1];
    return start === undefined ? { pid } : { pid, start };
  } catch {
    return null;
  }
}

/**
 * The pid in a profile's pid file when that process is still running, else null. A pid that now belongs to
 * another process (its start differs from the one recorded) counts as not running.
 */
export function runningPid(params: { profile: Profile }): number | null {
  const recorded = readPidFile(params);
  if (recorded === null || !alive(recorded.pid)) return null;
  if (recorded.start === undefined) return recorded.pid;
  const now = processStartTicks({ pid: recorded.pid });
  return now === undefined || now === recorded.start ? recorded.pid : null;
}

/** The profile's pid lock, held by this process. */
export interface PidLock {
  /** Removes gateway.pid (when it is still this process's). */
  release(): void;
  /** False while the disk refused the pid file's content (the empty file still holds the name). */
  readonly written: boolean;
  /** Writes the content the disk refused before; true once it is written. Throws while the disk still refuses. */
  retryWrite(): boolean;
}

/**
 * Makes this process the profile's one gateway: writes gateway.pid (the pid, and its start where /proc tells it),
 * or fails clearly when another live gateway holds it. A pid file left by a killed process is taken over, also when
 * its pid has since been given to an unrelated process. On a full or read-only disk the (empty) file is kept and
 * the gateway runs anyway; `retryWrite` fills it in once the disk takes writes. `write` is a test seam.
 */
export function acquirePidLock(params: { profile: Profile; write?: (fd: number, text: string) => void }): PidLock {
  const { profile } = params;
  const write = params.write ?? ((fd: number, text: string): void => void writeSync(fd, text));
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(profile.pidPath, 'wx', 0o600);
      const start = processStartTicks({ pid: process.pid });
      const content = `${process.pid}\n${start === undefined ? '' : `start ${start}\n`}`;
      let written = true;
      try {
        write(fd, content);
      } catch (error) {
        if (diskErrorKind({ error, path: profile.dir }) === undefined) {
          closeSync(fd);
          unlinkSync(profile.pidPath);
          throw error;
        }
        written = false;
      }
      closeSync(fd);
      let released = false;
      return {
        get written() {
          return written;
        },
        retryWrite: () => {
          if (written || released) return true;
          writeFileSync(profile.pidPath, content, { mode: 0o600 });
          written = true;
          return true;
        },
        release: () => {
          if (released) return;
          released = true;
          try {
            if (!written || readPidFile({ profile })?.pid === process.pid) unlinkSync(profile.pidPath);
          } catch {
            // Left behind on a read-only disk: its pid no longer runs, so the next start takes it over.
          }
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
