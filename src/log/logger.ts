import { hostname } from 'node:os';
import { pino, type DestinationStream, type LevelWithSilent, type LogFn, type Logger } from 'pino';
import { createRequire } from 'node:module';
import type { Profile } from '../home/profile.js';
import { systemClock, type Clock } from '../core/clock.js';
import { censorSecretKeys } from './secret-keys.js';
import { maskPhonesInText } from './phone-mask.js';
import type { DiskReporter } from '../util/disk-error.js';
import { REDACTED, type Redactor } from './redact.js';
import { RotatingFileStream, type LogFileOps } from './rotating-file.js';
import { tolerateBrokenOutput } from './broken-output.js';

/** A logger and the way to shut it down. */
export interface LoggerHandle {
  /** The pino logger (JSON lines to logs/gateway.log, secrets redacted). */
  readonly logger: Logger;
  /** Flushes and closes the log file. Call once, at shutdown. */
  close(): Promise<void>;
  /** Tries a log file that refused writes again; true when it takes them (always true without a file). */
  retryFile(): boolean;
}

/**
 * Creates the profile's logger: JSON lines to `profile.logFile` (rotated by size, keeping `maxFiles`
 * old files), plus readable lines on `stderr` when `tty` is true. Secrets are removed twice: pino
 * `redact` censors secret-looking keys, and the Redactor scrubs secret values from messages, objects,
 * errors (message and stack) and, as a last check, from every finished line. A log file that refuses writes
 * (full or read-only disk) never ends the process: its lines go to stderr meanwhile and `disk` is told.
 */
export function createLogger(params: {
  profile: Profile;
  level: LevelWithSilent;
  redactor: Redactor;
  tty: boolean;
  maxSize: number;
  maxFiles: number;
  /** Where JSON lines go instead of the log file (tests). */
  destination?: DestinationStream;
  /** Where readable lines go when `tty` is true; defaults to process.stderr. */
  stderr?: NodeJS.WritableStream;
  /** Source of timestamps. */
  clock?: Clock;
  /** Told when the log file refuses writes and when it takes them again. */
  disk?: DiskReporter;
  /** File calls of the log file (tests inject a full disk). */
  fileOps?: LogFileOps;
}): LoggerHandle {
  const { profile, redactor } = params;
  const clock = params.clock ?? systemClock;
  // Lines go to stderr when the file refuses them (and readable ones on a terminal): a stderr nobody reads must not end the process.
  tolerateBrokenOutput({ stream: params.stderr ?? process.stderr });
  let file: RotatingFileStream | undefined;
  let primary = params.destination;
  if (primary === undefined) {
    file = new RotatingFileStream({
      file: profile.logFile,
      maxSize: params.maxSize,
      maxFiles: params.maxFiles,
      clock,
      // On a terminal the readable lines already go to stderr; otherwise stderr (the journal) takes the JSON lines.
      fallback: params.tty ? null : (params.stderr ?? process.stderr),
      notices: params.stderr ?? process.stderr,
      ...(params.disk ? { reporter: params.disk } : {}),
      ...(params.fileOps ? { ops: params.fileOps } : {}),
    });
    primary = file;
  }
  const streams: pino.StreamEntry[] = [{ level: 'trace', stream: primary }];
  if (params.tty) streams.push({ level: 'trace', stream: prettyStream({ out: params.stderr ?? process.stderr }) });

  const logger = pino(
    {
      level: params.level,
      base: { pid: process.pid, hostname: hostname(), profile: profile.name },
      timestamp: () => `,"time":"${new Date(clock.now()).toISOString()}"`,
      // Secret-named keys are censored in every logged object at any depth (secret-keys.ts); bindings below.
      formatters: { log: (object) => censorSecretKeys({ value: object, censor: REDACTED }) },
      serializers: { err: (error: unknown) => pino.stdSerializers.err(redactor.scrubValue(error) as Error) },
      hooks: {
        logMethod(args: Parameters<LogFn>, method: LogFn): void {
          const scrubbed = args.map((arg: unknown) => redactor.scrubValue(arg));
          method.apply(this, scrubbed as Parameters<LogFn>);
        },
        streamWrite: (line: string): string => maskPhonesInText({ text: scrubLine({ line, redactor }) }),
      },
    },
    pino.multistream(streams),
  );
  censorChildBindings({ logger });
  return {
    logger,
    close: async () => {
      logger.flush();
      await file?.close();
    },
    retryFile: () => file?.retry() ?? true,
  };
}

/**
 * Censors secret-named keys in the bindings of every child of `logger` (pino applies `formatters.bindings` to the
 * root's alone). Children inherit `child` from their parent, so replacing it on the root covers every descendant.
 */
function censorChildBindings(params: { logger: Logger }): void {
  const { logger } = params;
  // Called with each descendant as `this` (pino makes a child of whichever logger it is called on).
  const made: typeof logger.child = Reflect.get(logger, 'child');
  logger.child = function child(this: typeof logger, ...args: Parameters<typeof made>) {
    const [bindings, options] = args;
    return made.apply(this, [censorSecretKeys({ value: bindings, censor: REDACTED }), options]);
  } as typeof made;
}

/** Closes a logger made by createLogger. */
export async function closeLogger(params: { handle: LoggerHandle }): Promise<void> {
  await params.handle.close();
}

/** Last line of defence: a finished JSON line that still contains a secret is parsed, scrubbed and rebuilt. */
function scrubLine(params: { line: string; redactor: Redactor }): string {
  const { line, redactor } = params;
  if (!redactor.contains(line)) return line;
  try {
    return `${JSON.stringify(redactor.scrubValue(JSON.parse(line)))}\n`;
  } catch {
    return redactor.scrub(line);
  }
}

/** pino-pretty is loaded only for a logger that prints readable lines (a terminal), not by a service's start. */
const loadCjs = createRequire(import.meta.url);

/** A destination that prints each JSON line in readable form (pino-pretty's formatter) to `out`. */
function prettyStream(params: { out: NodeJS.WritableStream }): DestinationStream {
  const { prettyFactory } = loadCjs('pino-pretty') as typeof import('pino-pretty');
  const format = prettyFactory({ colorize: false, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  return { write: (line: string): void => void params.out.write(format(line)) };
}
