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
  /** V8's heap, used and reserved, and the memory JS objects hold outside it (Buffers; SQLite's own is not in it), from the child's /metrics (BENCH_SOAK_HEAP=1). */
  readonly heap?: { readonly usedMb: number; readonly totalMb: number; readonly externalMb: number };
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
  /** Compression summaries the child asked for (sessions continued after a compression). */
  readonly compressions: number;
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
  /** Read V8's heap figures from the child's /metrics at each sample (the child then loads prom-client: +~10 MB). */
  readonly heap: boolean;
  /** The model's context length for the child (BENCH_SOAK_CONTEXT): small enough, the sessions reach compression within the soak. */
  readonly contextLength?: number;
  /** Called with each sample as it is taken (progress). */
  readonly onSample?: (sample: SoakSample) => void;
}

/** A gauge's value in Prometheus text (the first line for `name` without labels), in MB. */
function gaugeMb(params: { text: string; name: string }): number {
  const line = params.text.split('\n').find((l) => l.startsWith(`${params.name} `));
  return Number.parseFloat(line?.slice(params.name.length + 1) ?? 'NaN') / 1024 / 1024;
}

/** V8's heap figures of the child, from its /metrics (prom-client's default metrics under the `hermes_` prefix). */
async function heapOf(params: { metricsUrl: string }): Promise<SoakSample['heap']> {
  const text = await (await fetch(params.metricsUrl)).text();
  return {
    usedMb: gaugeMb({ text, name: 'hermes_nodejs_heap_size_used_bytes' }),
    totalMb: gaugeMb({ text, name: 'hermes_nodejs_heap_size_total_bytes' }),
    externalMb: gaugeMb({ text, name: 'hermes_nodejs_external_memory_bytes' }),
  };
}

/**
 * A built gateway child with the API platform; messages at `perSecond` for `minutes`, rotating over `chats` chats
 * (their sessions grow as a user's would), the child's VmRSS sampled every `sampleEveryMs` and once more at the end.
 */
export async function runSoak(params: SoakParams): Promise<SoakFigures> {
  const child = await startApiGatewayChild({ metrics: params.heap, ...(params.contextLength === undefined ? {} : { contextLength: params.contextLength }) });
  const samples: SoakSample[] = [];
  let timer: NodeJS.Timeout | undefined;
  try {
    const rssReadyMb = rssMb({ pid: child.pid });
    const cpu0 = cpuMs({ pid: child.pid });
    const started = performance.now();
    const sample = async (): Promise<void> => {
      const atS = (performance.now() - started) / 1000;
      const rss = rssMb({ pid: child.pid });
      const taken = child.metricsUrl === undefined ? { atS, rssMb: rss } : { atS, rssMb: rss, heap: await heapOf({ metricsUrl: child.metricsUrl }) };
      samples.push(taken);
      params.onSample?.(taken);
    };
    await sample();
    // Sampling on a clock is the point: every `sampleEveryMs`, whatever the load is doing.
    timer = setInterval(() => void sample().catch(() => undefined), params.sampleEveryMs);
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
    await sample();
    return {
      minutes: params.minutes,
      warmupMinutes: params.warmupMinutes,
      perSecond: params.perSecond,
      chats: pool.size,
      messages: run.messages,
      rssReadyMb,
      samples,
      firstTextMs: run.latenciesMs,
      compressions: child.summaries(),
      childCpuMsPerMessage: (cpuMs({ pid: child.pid }) - cpu0) / run.messages,
    };
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\ngateway stderr:\n${child.stderr()}`);
  } finally {
    clearInterval(timer);
    await child.stop();
  }
}

/**
 * BENCH_SOAK_MINUTES (default 60), BENCH_SOAK_WARMUP_MINUTES (default 10, at most a third of the soak unless set),
 * BENCH_SOAK_RATE (messages per second, default 1: a higher rate reaches an hour's session lengths sooner),
 * BENCH_SOAK_HEAP=1 (V8's heap figures beside the RSS), BENCH_SOAK_CONTEXT (the model's context length in tokens: with
 * 8000, say, every session is compressed about every 100 messages, as a long-running chat is; by default sessions only grow).
 */
export function soakParamsFromEnv(): SoakParams {
  const minutes = Number.parseFloat(process.env['BENCH_SOAK_MINUTES'] ?? '60');
  const warmup = process.env['BENCH_SOAK_WARMUP_MINUTES'];
  const context = process.env['BENCH_SOAK_CONTEXT'];
  return {
    minutes,
    warmupMinutes: warmup === undefined ? Math.min(10, minutes / 3) : Number.parseFloat(warmup),
    perSecond: Number.parseFloat(process.env['BENCH_SOAK_RATE'] ?? '1'),
    chats: 20,
    sampleEveryMs: 10_000,
    heap: process.env['BENCH_SOAK_HEAP'] === '1',
    ...(context === undefined ? {} : { contextLength: Number.parseInt(context, 10) }),
  };
}

if (isMain({ moduleUrl: import.meta.url })) {
  const params = soakParamsFromEnv();
  console.log(`soak: ${params.minutes} min at ${params.perSecond} msg/s over ${params.chats} chats, RSS every ${params.sampleEveryMs / 1000} s, slope after ${params.warmupMinutes} min`);
  let lastMinute = -1;
  const onSample = (s: SoakSample): void => {
    const minute = Math.floor(s.atS / 60);
    if (minute === lastMinute) return;
    lastMinute = minute;
    const heap = s.heap === undefined ? '' : `, heap used ${s.heap.usedMb.toFixed(1)} of ${s.heap.totalMb.toFixed(1)} MB, external ${s.heap.externalMb.toFixed(1)} MB`;
    console.log(`  ${minute} min: RSS ${s.rssMb.toFixed(0)} MB${heap}`);
  };
  for (const line of soakLines({ figures: await runSoak({ ...params, onSample }) })) console.log(line);
}
