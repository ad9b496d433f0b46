// `npm run bench:soak`: the built gateway child under a slow steady load (1 msg/s over 20 chats) for an hour, its RSS
// sampled every 10 s; after a warm-up, the least-squares slope of RSS in MB/hour (a leak shows as a steady climb).
import { isMain } from '../src/util/is-main.js';
import { startApiGatewayChild } from './api-child.js';
import { ChatPool } from './chat-pool.js';
import { paced } from './load.js';
import { cpuMs, rssMb } from './proc.js';
import { soakLines } from './soak-report.js';

/** One sample of the child. */
export interface SoakSample {
  /** Seconds since the load started. */
  readonly atS: number;
  readonly rssMb: number;
}

/** What a soak measured. */
export interface SoakFigures {
  readonly minutes: number;
  readonly warmupMinutes: number;
  readonly perSecond: number;
  /** Chats used (more than asked for only when a chat's last answer had not ended when its turn came again). */
  readonly chats: number;
  readonly messages: number;
  readonly rssReadyMb: number;
  readonly samples: readonly SoakSample[];
  /** Request → first reply text, per message. */
  readonly firstTextMs: readonly number[];
  /** The child's CPU per message over the whole soak (user + system, /proc). */
  readonly childCpuMsPerMessage: number;
}

/** The soak's parameters. */
export interface SoakParams {
  readonly minutes: number;
  /** Samples before this are left out of the slope. */
  readonly warmupMinutes: number;
  readonly perSecond: number;
  readonly chats: number;
  readonly sampleEveryMs: number;
  /** Called with each sample as it is taken (progress). */
  readonly onSample?: (sample: SoakSample) => void;
}

/**
 * A built gateway child with the API platform; messages at `perSecond` for `minutes`, rotating over `chats` chats
 * (their sessions grow as a user's would), the child's VmRSS sampled every `sampleEveryMs` and once more at the end.
 */
export async function runSoak(params: SoakParams): Promise<SoakFigures> {
  const child = await startApiGatewayChild();
  const samples: SoakSample[] = [];
  let timer: NodeJS.Timeout | undefined;
  try {
    const rssReadyMb = rssMb({ pid: child.pid });
    const cpu0 = cpuMs({ pid: child.pid });
    const started = performance.now();
    const sample = (): void => {
      const taken = { atS: (performance.now() - started) / 1000, rssMb: rssMb({ pid: child.pid }) };
      samples.push(taken);
      params.onSample?.(taken);
    };
    sample();
    // Sampling on a clock is the point: every `sampleEveryMs`, whatever the load is doing.
    timer = setInterval(sample, params.sampleEveryMs);
    const ends: Promise<number>[] = [];
    const pool = new ChatPool({ prefix: 'soak', initial: params.chats });
    const run = await paced({
      messages: Math.round(params.minutes * 60 * params.perSecond),
      perSecond: params.perSecond,
      send: async ({ n }) => {
        await pool.ask({ child, n, ends });
      },
    });
    await Promise.all(ends);
    clearInterval(timer);
    sample();
    return {
      minutes: params.minutes,
      warmupMinutes: params.warmupMinutes,
      perSecond: params.perSecond,
      chats: pool.size,
      messages: run.messages,
      rssReadyMb,
      samples,
      firstTextMs: run.latenciesMs,
      childCpuMsPerMessage: (cpuMs({ pid: child.pid }) - cpu0) / run.messages,
    };
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\ngateway stderr:\n${child.stderr()}`);
  } finally {
    clearInterval(timer);
    await child.stop();
  }
}

/** BENCH_SOAK_MINUTES (default 60), BENCH_SOAK_WARMUP_MINUTES (default 10, at most a third of the soak unless set). */
export function soakParamsFromEnv(): SoakParams {
  const minutes = Number.parseFloat(process.env['BENCH_SOAK_MINUTES'] ?? '60');
  const warmup = process.env['BENCH_SOAK_WARMUP_MINUTES'];
  return { minutes, warmupMinutes: warmup === undefined ? Math.min(10, minutes / 3) : Number.parseFloat(warmup), perSecond: 1, chats: 20, sampleEveryMs: 10_000 };
}

if (isMain({ moduleUrl: import.meta.url })) {
  const params = soakParamsFromEnv();
  console.log(`soak: ${params.minutes} min at ${params.perSecond} msg/s over ${params.chats} chats, RSS every ${params.sampleEveryMs / 1000} s, slope after ${params.warmupMinutes} min`);
  let lastMinute = -1;
  const onSample = (s: SoakSample): void => {
    const minute = Math.floor(s.atS / 60);
    if (minute === lastMinute) return;
    lastMinute = minute;
    console.log(`  ${minute} min: RSS ${s.rssMb.toFixed(0)} MB`);
  };
  for (const line of soakLines({ figures: await runSoak({ ...params, onSample }) })) console.log(line);
}
