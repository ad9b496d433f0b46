// A run's figures against the recorded ones: each figure, the recorded value, the change, and whether it moved more
// than the threshold the wrong way.
import type { Recorded } from './figure-files.js';
import type { Figure } from './figures.js';

/** One figure compared. */
export interface Comparison {
  readonly figure: Figure;
  /** The recorded value and date, if any. */
  readonly recorded?: { readonly value: number; readonly date: string; readonly unit: string };
  /** (now − recorded) / |recorded|; undefined without a recorded value (or a recorded 0). */
  readonly change?: number;
  /** Moved more than the threshold the wrong way (or the unit changed). */
  readonly flagged: boolean;
}

/** Compares each figure with its recorded value; `threshold` is a fraction (0.25: 25%). */
export function compare(params: { figures: readonly Figure[]; recorded: Recorded; threshold: number }): Comparison[] {
  return params.figures.map((figure) => {
    const entry = params.recorded[figure.name];
    if (entry === undefined) return { figure, flagged: false };
    const recorded = { value: entry.value, date: entry.recorded, unit: entry.unit };
    const change = entry.value === 0 ? undefined : (figure.value - entry.value) / Math.abs(entry.value);
    const worse = change !== undefined && (figure.better === 'lower' ? change > params.threshold : change < -params.threshold);
    return { figure, recorded, ...(change === undefined ? {} : { change }), flagged: worse || entry.unit !== figure.unit || !Number.isFinite(figure.value) };
  });
}

/** A value with about three significant digits. */
function show(params: { value: number; unit: string }): string {
  const { value } = params;
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2;
  return `${value.toFixed(digits)} ${params.unit}`;
}

/** The comparison as a table, the flagged rows marked. */
export function comparisonLines(params: { comparisons: readonly Comparison[]; threshold: number }): string[] {
  const width = Math.max(6, ...params.comparisons.map((c) => c.figure.name.length));
  const header = `${'figure'.padEnd(width)}  ${'now'.padStart(14)}  ${'recorded'.padStart(14)}  ${'on'.padEnd(10)}  change`;
  const rows = params.comparisons.map((c) => {
    const now = show(c.figure).padStart(14);
    const then = c.recorded === undefined ? '(none)'.padStart(14) : show({ value: c.recorded.value, unit: c.recorded.unit }).padStart(14);
    const on = (c.recorded?.date ?? '').padEnd(10);
    const pct = c.change === undefined ? undefined : Math.round(c.change * 1000) / 10;
    const change = pct === undefined ? '' : `${pct > 0 ? '+' : ''}${(pct === 0 ? 0 : pct).toFixed(1)}%`;
    const why = !c.flagged ? '' : c.recorded !== undefined && c.recorded.unit !== c.figure.unit ? '  ← unit changed' : `  ← worse by more than ${(params.threshold * 100).toFixed(0)}% (${c.figure.better} is better)`;
    return `${c.figure.name.padEnd(width)}  ${now}  ${then}  ${on}  ${change.padStart(7)}${why}`;
  });
  return [header, ...rows];
}
