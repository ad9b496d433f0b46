/** Percentile of sorted samples (nearest rank). */
export function percentile(params: { sorted: readonly number[]; p: number }): number {
  const { sorted, p } = params;
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** One measured run. */
export interface RunFigures {
  readonly name: string;
  readonly messages: number;
  readonly seconds: number;
  readonly latenciesMs: readonly number[];
}

/** Formats a run as one table row. */
export function row(params: { run: RunFigures }): string {
  const { run } = params;
  const sorted = [...run.latenciesMs].sort((a, b) => a - b);
  const rate = run.messages / run.seconds;
  return [
    run.name.padEnd(34),
    `${rate.toFixed(0).padStart(7)} msg/s`,
    `p50 ${percentile({ sorted, p: 50 }).toFixed(2).padStart(7)} ms`,
    `p99 ${percentile({ sorted, p: 99 }).toFixed(2).padStart(7)} ms`,
  ].join('  ');
}

/** Least-squares slope of y over x (NaN for fewer than two distinct x). */
export function slope(params: { xs: readonly number[]; ys: readonly number[] }): number {
  const n = Math.min(params.xs.length, params.ys.length);
  if (n < 2) return Number.NaN;
  let sx = 0;
  let sy = 0;
  for (let i = 0; i < n; i++) {
    sx += params.xs[i] ?? 0;
    sy += params.ys[i] ?? 0;
  }
  const mx = sx / n;
  const my = sy / n;
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    const dx = (params.xs[i] ?? 0) - mx;
    sxy += dx * ((params.ys[i] ?? 0) - my);
    sxx += dx * dx;
  }
  return sxx === 0 ? Number.NaN : sxy / sxx;
}
