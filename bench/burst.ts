// `npm run bench:burst`: the gateway's own CPU per message and its memory through a burst, measured on the built
// gateway as its own process (the load generator and the fake model are this process), next to the floor's capacity.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isMain } from '../src/util/is-main.js';
import { burstThroughApi } from './api-burst.js';
import { startApiGatewayChild } from './api-child.js';
import { runBaseline } from './baseline.js';
import { burstLines } from './burst-report.js';
import { monotonicMicros, profileShares, readProfile, type ProfileShares } from './cpu-profile.js';
import { cpuMs, peakRssMb, rssMb } from './proc.js';
import type { RunFigures } from './stats.js';

/** What a burst measured. */
export interface BurstFigures {
  readonly messages: number;
  readonly concurrency: number;
  /** Unmeasured messages sent before the burst (JIT, SQLite page cache), in chats of their own. */
  readonly warmup: number;
  /** First send → last first reply text. */
  readonly seconds: number;
  /** Send → first reply text, per message. */
  readonly firstTextMs: readonly number[];
  /** Last first reply text → every stream ended (the final edits the API paces 250 ms after the first send). */
  readonly drainSeconds: number;
  /** The floor (fastify + one SQLite insert) at the same count and concurrency, in this run. */
  readonly floor: RunFigures;
  /** The child's CPU (user + system, /proc/PID/stat) over the burst and its drain, per message. */
  readonly childCpuMsPerMessage: number;
  /** This process's CPU over the same span (HTTP client and fake model), per message. */
  readonly loadCpuMsPerMessage: number;
  /** Spawn → /healthz ok. */
  readonly readyMs: number;
  /** The child's VmRSS at ready (before any message), right after the burst, and after `settleMs` of idling. */
  readonly rssReadyMb: number;
  readonly rssAfterBurstMb: number;
  readonly rssAfterSettleMb: number;
  /** The child's VmHWM after the burst: its largest RSS so far. */
  readonly rssPeakMb: number;
  readonly settleMs: number;
  /** With `profile`: where the child's CPU went during the burst (it ran under --cpu-prof, which costs a little). */
  readonly profile?: ProfileShares;
}

/** The burst's parameters. */
export interface BurstParams {
  readonly messages: number;
  readonly concurrency: number;
  readonly warmup: number;
  readonly settleMs: number;
  /** Run the child under `--cpu-prof` and report where its CPU went during the burst. */
  readonly profile: boolean;
}

/**
 * The floor first (a warm-up of `warmup`, then `messages` at `concurrency`), then a built gateway child with the API
 * platform: its RSS at ready, `warmup` unmeasured messages, then `messages` messages in as many chats with
 * `concurrency` in flight; the child's CPU from before the burst to the end of its last stream, its RSS then and after
 * `settleMs` of idling.
 */
export async function runBurst(params: BurstParams): Promise<BurstFigures> {
  await runBaseline({ messages: params.warmup, concurrency: params.concurrency });
  const floor = await runBaseline({ messages: params.messages, concurrency: params.concurrency });
  const profileDir = params.profile ? mkdtempSync(path.join(os.tmpdir(), 'hermes-bench-prof-')) : undefined;
  const child = await startApiGatewayChild(profileDir === undefined ? {} : { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] });
  try {
    const { pid } = child;
    const rssReadyMb = rssMb({ pid });
    await burstThroughApi({ child, messages: params.warmup, concurrency: params.concurrency, prefix: 'warm' });
    const cpu0 = cpuMs({ pid });
    const load0 = process.cpuUsage();
    const fromUs = monotonicMicros();
    const burst = await burstThroughApi({ child, messages: params.messages, concurrency: params.concurrency, prefix: 'burst' });
    const toUs = monotonicMicros();
    const childCpu = cpuMs({ pid }) - cpu0;
    const load = process.cpuUsage(load0);
    const rssAfterBurstMb = rssMb({ pid });
    const rssPeakMb = peakRssMb({ pid });
    // Idling is the point here: nothing to wait for but the time.
    await new Promise((r) => setTimeout(r, params.settleMs));
    const rssAfterSettleMb = rssMb({ pid });
    // The profile is written when the child exits.
    await child.stop();
    const profile = profileDir === undefined ? undefined : profileShares({ profile: readProfile({ dir: profileDir }), fromUs, toUs });
    return {
      messages: burst.messages,
      concurrency: params.concurrency,
      warmup: params.warmup,
      seconds: burst.seconds,
      firstTextMs: burst.latenciesMs,
      drainSeconds: burst.drainSeconds,
      floor,
      childCpuMsPerMessage: childCpu / burst.messages,
      loadCpuMsPerMessage: (load.user + load.system) / 1000 / burst.messages,
      readyMs: child.readyMs,
      rssReadyMb,
      rssAfterBurstMb,
      rssAfterSettleMb,
      rssPeakMb,
      settleMs: params.settleMs,
      ...(profile === undefined ? {} : { profile }),
    };
  } catch (error) {
    throw new Error(`${error instanceof Error ? error.message : String(error)}\ngateway stderr:\n${child.stderr()}`);
  } finally {
    await child.stop();
    if (profileDir !== undefined && process.env["BENCH_KEEP_PROFILE"] === undefined) rmSync(profileDir, { recursive: true, force: true });
  }
}

/** BENCH_MESSAGES (default 2000), BENCH_SETTLE_MS (default 60000) and BENCH_BURST_PROFILE=1 from the environment. */
export function burstParamsFromEnv(): BurstParams {
  return {
    messages: Number.parseInt(process.env['BENCH_MESSAGES'] ?? '2000', 10),
    concurrency: 50,
    warmup: 200,
    settleMs: Number.parseInt(process.env['BENCH_SETTLE_MS'] ?? '60000', 10),
    profile: process.env['BENCH_BURST_PROFILE'] === '1',
  };
}

if (isMain({ moduleUrl: import.meta.url })) {
  for (const line of burstLines({ figures: await runBurst(burstParamsFromEnv()) })) console.log(line);
}
