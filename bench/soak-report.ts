// The soak's report: the RSS slope after the warm-up, printed and as named figures.
import type { Figure } from './figures.js';
import type { SoakFigures } from './soak.js';
import { percentile, slope } from './stats.js';

/** The samples after the warm-up, their RSS range and least-squares slope in MB/hour. */
export function soakTrend(params: { figures: SoakFigures }): { samples: number; minMb: number; maxMb: number; mbPerHour: number } {
  const after = params.figures.samples.filter((s) => s.atS >= params.figures.warmupMinutes * 60);
  const rss = after.map((s) => s.rssMb);
  return {
    samples: after.length,
    minMb: Math.min(...rss),
    maxMb: Math.max(...rss),
    mbPerHour: slope({ xs: after.map((s) => s.atS / 3600), ys: rss }),
  };
}

/** The printed report. */
export function soakLines(params: { figures: SoakFigures }): string[] {
  const f = params.figures;
  const trend = soakTrend(params);
  const sorted = [...f.firstTextMs].sort((a, b) => a - b);
  const all = f.samples.map((s) => s.rssMb);
  return [
    `soak: ${f.messages} messages at ${f.perSecond} msg/s over ${f.chats} chats for ${f.minutes} min, built gateway child (API platform), node ${process.version}, ${f.compressions} compressions:`,
    `  RSS after the first ${f.warmupMinutes} min (${trend.samples} samples): slope ${trend.mbPerHour.toFixed(1)} MB/hour, min ${trend.minMb.toFixed(0)} MB, max ${trend.maxMb.toFixed(0)} MB; ` +
      `ready ${f.rssReadyMb.toFixed(0)} MB, whole run min ${Math.min(...all).toFixed(0)} MB, max ${Math.max(...all).toFixed(0)} MB`,
    ...heapLines(params),
    `  request → first reply text p50 ${percentile({ sorted, p: 50 }).toFixed(1)} ms, p99 ${percentile({ sorted, p: 99 }).toFixed(1)} ms; child CPU ${f.childCpuMsPerMessage.toFixed(2)} ms/message`,
  ];
}

/** With heap samples (BENCH_SOAK_HEAP=1): V8's heap used after the warm-up, its slope and range. */
function heapLines(params: { figures: SoakFigures }): string[] {
  const after = params.figures.samples.filter((s) => s.atS >= params.figures.warmupMinutes * 60 && s.heap !== undefined);
  if (after.length < 2) return [];
  const used = after.map((s) => s.heap?.usedMb ?? 0);
  const total = after.map((s) => s.heap?.totalMb ?? 0);
  const perHour = slope({ xs: after.map((s) => s.atS / 3600), ys: used });
  return [
    `  V8 heap used after the warm-up: slope ${perHour.toFixed(1)} MB/hour, min ${Math.min(...used).toFixed(1)} MB, max ${Math.max(...used).toFixed(1)} MB; ` +
      `reserved ${Math.min(...total).toFixed(1)}–${Math.max(...total).toFixed(1)} MB`,
  ];
}

/** The named figures (for a check against a recorded soak, from a saved run). */
export function soakFigures(params: { figures: SoakFigures }): Figure[] {
  const trend = soakTrend(params);
  return [
    { name: 'soak.rss_slope', value: trend.mbPerHour, unit: 'MB/h', better: 'lower' },
    { name: 'soak.rss_max', value: trend.maxMb, unit: 'MB', better: 'lower' },
    { name: 'soak.child_cpu_per_msg', value: params.figures.childCpuMsPerMessage, unit: 'ms', better: 'lower' },
  ];
}
