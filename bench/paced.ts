// `npm run bench:paced`: the latency the gateway adds at a steady 50 msg/s (messages arriving at a fixed rate, not a
// closed loop), on the built gateway child through the API platform, next to the floor at the same pace in the same run.
import { isMain } from '../src/util/is-main.js';
import { burstThroughApi } from './api-burst.js';
import { ChatPool } from './chat-pool.js';
import { startApiGatewayChild } from './api-child.js';
import { runBaselinePaced } from './baseline.js';
import type { Figure } from './figures.js';
import { paced } from './load.js';
import { cpuMs } from './proc.js';
import { percentile } from './stats.js';

/** What a paced run measured. */
export interface PacedFigures {
  readonly perSecond: number;
  readonly messages: number;
  /** Chats used (more than asked for when answers were slow to end: a chat takes a message only once its last turn ended). */
  readonly chats: number;
  /** Request → first reply text through the gateway child. */
  readonly firstTextMs: readonly number[];
  /** Request → the answer's headers (the message journaled). */
  readonly acceptedMs: readonly number[];
  /** Request → response of the floor (fastify + SQLite insert) at the same pace. */
  readonly floorMs: readonly number[];
  /** The largest delay of a send past its due time, gateway run and floor run: this process's lag. */
  readonly lateMs: number;
  /** The child's CPU per message over the paced run (user + system, /proc). */
  readonly childCpuMsPerMessage: number;
}

/** The paced run's parameters. */
export interface PacedParams {
  readonly perSecond: number;
  readonly seconds: number;
  /** Chats the messages rotate over (each gets one every chats/perSecond seconds; see ChatPool). */
  readonly chats: number;
  /** Unmeasured requests to the floor before its run (the child's warm-up is one message in each chat). */
  readonly warmup: number;
}

/**
 * The floor at `perSecond` for `seconds`, then a built gateway child with the API platform: one message in each of
 * `chats` chats (a closed loop, unmeasured), then the same pace over those chats, timing each request to its first
 * reply text (every stream read to its end before the child stops).
 */
export async function runPaced(params: PacedParams): Promise<PacedFigures> {
  const messages = Math.round(params.perSecond * params.seconds);
  const floor = await runBaselinePaced({ messages, perSecond: params.perSecond, warmup: params.warmup });
  const child = await startApiGatewayChild();
  try {
    // The warm-up opens the chats: one message each, so the paced run is in sessions that have a history (a new
    // session's first turn builds its prompt, the costliest turn; a burst in new chats is bench:burst's case).
    await burstThroughApi({ child, messages: params.chats, concurrency: 10, prefix: 'paced' });
    const acceptedMs: number[] = [];
    const ends: Promise<number>[] = [];
    const pool = new ChatPool({ prefix: 'paced', initial: params.chats });
    const cpu0 = cpuMs({ pid: child.pid });
    const run = await paced({
      messages,
      perSecond: params.perSecond,
      send: async ({ n }) => {
        acceptedMs.push((await pool.ask({ child, n, ends })).acceptedMs);
      },
    });
    await Promise.all(ends);
    const childCpu = cpuMs({ pid: child.pid }) - cpu0;
    return {
      perSecond: params.perSecond,
      messages: run.messages,
      chats: pool.size,
      firstTextMs: run.latenciesMs,
      acceptedMs,
      floorMs: floor.latenciesMs,
      lateMs: Math.max(run.lateMs, floor.lateMs),
      childCpuMsPerMessage: childCpu / run.messages,
    };
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\ngateway stderr:\n${child.stderr()}`);
  } finally {
    await child.stop();
  }
}

/** p50 and p99 of samples. */
function quantiles(params: { samples: readonly number[] }): { p50: number; p99: number } {
  const sorted = [...params.samples].sort((a, b) => a - b);
  return { p50: percentile({ sorted, p: 50 }), p99: percentile({ sorted, p: 99 }) };
}

/** The printed report. */
export function pacedLines(params: { figures: PacedFigures }): string[] {
  const f = params.figures;
  const gateway = quantiles({ samples: f.firstTextMs });
  const accepted = quantiles({ samples: f.acceptedMs });
  const floor = quantiles({ samples: f.floorMs });
  const ms = (q: { p50: number; p99: number }): string => `p50 ${q.p50.toFixed(1)} ms, p99 ${q.p99.toFixed(1)} ms`;
  return [
    `paced: ${f.messages} messages at ${f.perSecond} msg/s over ${f.chats} chats, built gateway child (API platform), node ${process.version}:`,
    `  gateway request → first reply text ${ms(gateway)} (request → accepted ${ms(accepted)}); floor (fastify + SQLite insert) request → response ${ms(floor)}`,
    `  gateway-added: p50 ${(gateway.p50 - floor.p50).toFixed(1)} ms, p99 ${(gateway.p99 - floor.p99).toFixed(1)} ms (goal p99 ≤ 10 ms; a model call to the instant fake included); ` +
      `child CPU ${f.childCpuMsPerMessage.toFixed(2)} ms/message; sends at most ${f.lateMs.toFixed(1)} ms late`,
  ];
}

/** The named figures for bench:check. */
export function pacedFigures(params: { figures: PacedFigures }): Figure[] {
  const f = params.figures;
  const gateway = quantiles({ samples: f.firstTextMs });
  const floor = quantiles({ samples: f.floorMs });
  return [
    { name: 'paced.first_text_p50', value: gateway.p50, unit: 'ms', better: 'lower' },
    { name: 'paced.first_text_p99', value: gateway.p99, unit: 'ms', better: 'lower' },
    { name: 'paced.floor_p50', value: floor.p50, unit: 'ms', better: 'lower' },
    { name: 'paced.floor_p99', value: floor.p99, unit: 'ms', better: 'lower' },
    { name: 'paced.added_p99', value: gateway.p99 - floor.p99, unit: 'ms', better: 'lower' },
    { name: 'paced.child_cpu_per_msg', value: f.childCpuMsPerMessage, unit: 'ms', better: 'lower' },
  ];
}

/** BENCH_PACED_RATE (default 50) and BENCH_PACED_SECONDS (default 20) from the environment. */
export function pacedParamsFromEnv(): PacedParams {
  const perSecond = Number.parseInt(process.env['BENCH_PACED_RATE'] ?? '50', 10);
  return { perSecond, seconds: Number.parseFloat(process.env['BENCH_PACED_SECONDS'] ?? '20'), chats: perSecond * 4, warmup: 200 };
}

if (isMain({ moduleUrl: import.meta.url })) {
  for (const line of pacedLines({ figures: await runPaced(pacedParamsFromEnv()) })) console.log(line);
}
