// The burst's report: printed lines and named figures.
import type { BurstFigures } from './burst.js';
import type { ProfileShares } from './cpu-profile.js';
import type { Figure } from './figures.js';
import { percentile } from './stats.js';

/** Messages per second of a run. */
function rate(params: { messages: number; seconds: number }): number {
  return params.messages / params.seconds;
}

/** p50 and p99 of samples, as text. */
function p50p99(params: { samples: readonly number[] }): string {
  const sorted = [...params.samples].sort((a, b) => a - b);
  return `p50 ${percentile({ sorted, p: 50 }).toFixed(1)} ms, p99 ${percentile({ sorted, p: 99 }).toFixed(1)} ms`;
}

/** Where the child's CPU went (a run under --cpu-prof). */
function profileLines(params: { profile: ProfileShares; cpuMsPerMessage: number }): string[] {
  const { profile } = params;
  const pct = (share: number): string => `${(share * 100).toFixed(1)}%`;
  return [
    `  under --cpu-prof (${profile.samples} samples in the burst): model client (openai SDK + fetch) ${pct(profile.modelClient)}, GC ${pct(profile.gc)}; ` +
      `outside the model client ≈ ${(params.cpuMsPerMessage * (1 - profile.modelClient)).toFixed(2)} ms/message (goal ≤ 1)`,
    `  gateway functions by inclusive time (callees included; the outer ones contain the inner): ${profile.topOwn.map((t) => `${t.name} ${pct(t.share)}`).join('; ')}`,
    `  costliest functions by self time: ${profile.topSelf.map((t) => `${t.name} ${pct(t.share)}`).join('; ')}`,
  ];
}

/** The printed report. */
export function burstLines(params: { figures: BurstFigures }): string[] {
  const f = params.figures;
  const capacity = rate(f);
  const floorRate = rate(f.floor);
  return [
    `burst through the built gateway child (API platform, ${f.messages} messages in ${f.messages} chats, ${f.concurrency} in flight, after ${f.warmup} unmeasured), node ${process.version}:`,
    `  capacity ${capacity.toFixed(0)} msg/s (request → first reply text: ${p50p99({ samples: f.firstTextMs })}); ` +
      `floor (fastify + SQLite insert) ${floorRate.toFixed(0)} msg/s (${p50p99({ samples: f.floor.latenciesMs })}); ratio ${(capacity / floorRate).toFixed(2)} (goal ≥ 0.3)`,
    `  gateway child CPU ${f.childCpuMsPerMessage.toFixed(2)} ms/message (user + system from /proc, its own model client and the final edits ${f.drainSeconds.toFixed(2)} s later included); ` +
      `load side (this process: HTTP client + fake model) ${f.loadCpuMsPerMessage.toFixed(2)} ms/message`,
    `  child RSS: ready ${f.rssReadyMb.toFixed(0)} MB (${(f.readyMs / 1000).toFixed(1)} s after spawn), after the burst ${f.rssAfterBurstMb.toFixed(0)} MB (peak ${f.rssPeakMb.toFixed(0)} MB; goal ≤ 200), ` +
      `after ${(f.settleMs / 1000).toFixed(0)} s idle ${f.rssAfterSettleMb.toFixed(0)} MB (${(f.rssAfterSettleMb - f.rssReadyMb).toFixed(0)} MB over ready; goal ≤ 20 after 60 s)`,
    ...(f.profile === undefined ? [] : profileLines({ profile: f.profile, cpuMsPerMessage: f.childCpuMsPerMessage })),
  ];
}

/** The named figures for bench:check. */
export function burstFigures(params: { figures: BurstFigures }): Figure[] {
  const f = params.figures;
  const sorted = [...f.firstTextMs].sort((a, b) => a - b);
  return [
    { name: 'burst.capacity', value: rate(f), unit: 'msg/s', better: 'higher' },
    { name: 'burst.floor_capacity', value: rate(f.floor), unit: 'msg/s', better: 'higher' },
    { name: 'burst.capacity_ratio', value: rate(f) / rate(f.floor), unit: '×floor', better: 'higher' },
    { name: 'burst.first_text_p50', value: percentile({ sorted, p: 50 }), unit: 'ms', better: 'lower' },
    { name: 'burst.child_cpu_per_msg', value: f.childCpuMsPerMessage, unit: 'ms', better: 'lower' },
    { name: 'burst.rss_ready', value: f.rssReadyMb, unit: 'MB', better: 'lower' },
    { name: 'burst.rss_after_burst', value: f.rssAfterBurstMb, unit: 'MB', better: 'lower' },
    { name: 'burst.rss_peak', value: f.rssPeakMb, unit: 'MB', better: 'lower' },
    { name: 'burst.rss_after_settle', value: f.rssAfterSettleMb, unit: 'MB', better: 'lower' },
  ];
}
