import { prettyFactory } from 'pino-pretty';
import { DEFAULT_PROFILE_NAME } from '../home/profile.js';
import { systemClock, type Clock } from '../core/clock.js';
import { profileFrom, type GlobalOptions } from './context.js';
import { followFile } from './logs-follow.js';
import { lastLines } from './logs-tail.js';
import { println, type CliIO } from './output.js';

/** What `hermes logs` takes. */
export interface LogsParams {
  readonly options: GlobalOptions;
  readonly io: CliIO;
  /** How many of the last lines to print first. */
  readonly lines: number;
  /** Keep printing new lines (across rotation) until `signal` aborts (default: until SIGINT). */
  readonly follow: boolean;
  /** Print the raw pino JSON lines instead of pretty ones. */
  readonly json: boolean;
  readonly signal?: AbortSignal;
  readonly clock?: Clock;
  /** How often a follower looks for new lines. */
  readonly pollMs?: number;
}

/** Turns a raw log line into what is printed: the JSON itself, or pino-pretty's line (colored only on a TTY). */
function formatter(params: { json: boolean; colorize: boolean }): (line: string) => string {
  if (params.json) return (line) => `${line}\n`;
  const pretty = prettyFactory({ colorize: params.colorize, translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l', ignore: 'pid,hostname,profile' });
  return (line) => {
    const text: unknown = pretty(line);
    return typeof text === 'string' ? text : `${line}\n`;
  };
}

/** Runs `follow` until `signal` aborts, or until SIGINT when no signal was given. */
async function untilStopped(params: { signal: AbortSignal | undefined; follow: (signal: AbortSignal) => Promise<void> }): Promise<void> {
  if (params.signal) return params.follow(params.signal);
  const controller = new AbortController();
  const stop = (): void => controller.abort();
  process.once('SIGINT', stop);
  try {
    await params.follow(controller.signal);
  } finally {
    process.off('SIGINT', stop);
  }
}

/** `hermes logs [-f] [-n N] [--json]`: the profile's logs/gateway.log, pretty-printed; `-f` follows it across rotation. */
export async function logs(params: LogsParams): Promise<number> {
  const { io } = params;
  const profile = profileFrom(params);
  const format = formatter({ json: params.json, colorize: io.isTTY });
  const write = (line: string): void => void io.stdout.write(format(line));
  const current = lastLines({ file: profile.logFile, count: params.lines });
  if (current === null) {
    const run = `hermes${profile.name === DEFAULT_PROFILE_NAME ? '' : ` -p ${profile.name}`} gateway run`;
    println({ stream: io.stderr, text: `no log yet for profile "${profile.name}" (${profile.logFile} does not exist); the gateway writes it once it runs (\`${run}\`)` });
    if (!params.follow) return 1;
    println({ stream: io.stderr, text: 'waiting for it to appear (Ctrl-C to stop)...' });
  } else {
    const missing = params.lines - current.lines.length;
    const older = missing > 0 ? lastLines({ file: `${profile.logFile}.1`, count: missing })?.lines ?? [] : [];
    for (const line of [...older, ...current.lines]) write(line);
  }
  if (!params.follow) return 0;
  const clock = params.clock ?? systemClock;
  await untilStopped({
    signal: params.signal,
    follow: (signal) => followFile({ file: profile.logFile, ...(current ? { from: current.at } : {}), clock, signal, onLine: write, ...(params.pollMs ? { pollMs: params.pollMs } : {}) }),
  });
  return 0;
}
