// Another process's CPU time and memory, read from /proc (Linux): what a child gateway spent, apart from the bench.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond: number | undefined;

/** Clock ticks per second of /proc/PID/stat's times (`getconf CLK_TCK`, 100 on Linux when it cannot be asked). */
function clockTicks(): number {
  if (ticksPerSecond !== undefined) return ticksPerSecond;
  let ticks = 100;
  try {
    const answer = Number.parseInt(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim(), 10);
    if (Number.isFinite(answer) && answer > 0) ticks = answer;
  } catch {
    // No getconf: Linux's USER_HZ is 100.
  }
  ticksPerSecond = ticks;
  return ticks;
}

/** CPU time a process has used so far (user + system, all its threads), in ms, from /proc/PID/stat. */
export function cpuMs(params: { pid: number }): number {
  const stat = readFileSync(`/proc/${params.pid}/stat`, 'utf8');
  // The command name (field 2) is in parentheses and may hold spaces: the fields after it start past the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime are fields 14 and 15, i.e. 11 and 12 after the name's field and the state (field 3 is index 0 here).
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / clockTicks();
}

/** A "Name: N kB" line of /proc/PID/status, in MB. */
function statusMb(params: { pid: number; field: string }): number {
  const line = readFileSync(`/proc/${params.pid}/status`, 'utf8').split('\n').find((l) => l.startsWith(`${params.field}:`));
  return Number.parseInt(line?.replace(/\D+/g, ' ').trim() ?? 'NaN', 10) / 1024;
}

/** Resident set size of a process (VmRSS in /proc/PID/status), in MB. */
export function rssMb(params: { pid: number }): number {
  return statusMb({ pid: params.pid, field: 'VmRSS' });
}

/** The largest resident set size a process has had since it started (VmHWM), in MB. */
export function peakRssMb(params: { pid: number }): number {
  return statusMb({ pid: params.pid, field: 'VmHWM' });
}
