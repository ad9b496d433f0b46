// The two files of named figures: a run's (written by `bench:check --out` or `npm run bench` with BENCH_FIGURES_OUT,
// read by `bench:check --from`) and the recorded ones the check compares against (bench/recorded.json).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { Figure } from './figures.js';

/** The committed figures a check compares against. */
export const RECORDED_PATH = fileURLToPath(new URL('recorded.json', import.meta.url));

const better = z.enum(['lower', 'higher']);

const runFileSchema = z.object({
  node: z.string(),
  date: z.string(),
  figures: z.array(z.object({ name: z.string(), value: z.number(), unit: z.string(), better })),
});

const recordedEntrySchema = z.object({ value: z.number(), unit: z.string(), better, recorded: z.string(), node: z.string().optional() });

/** One recorded figure: its value, unit, which way is better, when (YYYY-MM-DD) and on which node. */
export type RecordedEntry = z.infer<typeof recordedEntrySchema>;

/** name → recorded figure. */
export type Recorded = Record<string, RecordedEntry>;

/** Today as YYYY-MM-DD (local time). */
export function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** Writes a run's figures (JSON with the node version and date). */
export function writeRunFigures(params: { path: string; figures: readonly Figure[] }): void {
  const finite = params.figures.filter((f) => Number.isFinite(f.value));
  writeFileSync(params.path, `${JSON.stringify({ node: process.version, date: today(), figures: finite }, null, 2)}\n`);
}

/** Reads a run's figures from `path` ('-': standard input). */
export function readRunFigures(params: { path: string }): { node: string; date: string; figures: Figure[] } {
  const text = readFileSync(params.path === '-' ? 0 : params.path, 'utf8');
  return runFileSchema.parse(JSON.parse(text));
}

/** The recorded figures (none when the file does not exist yet). */
export function readRecorded(params: { path: string }): Recorded {
  let text: string;
  try {
    text = readFileSync(params.path, 'utf8');
  } catch {
    return {};
  }
  return z.record(z.string(), recordedEntrySchema).parse(JSON.parse(text));
}

/** Records `figures` (finite ones) over the recorded ones of the same names, with the run's date and node; the others are kept. */
export function writeRecorded(params: { path: string; recorded: Recorded; figures: readonly Figure[]; date: string; node: string }): number {
  const merged: Recorded = { ...params.recorded };
  const finite = params.figures.filter((f) => Number.isFinite(f.value));
  for (const f of finite) merged[f.name] = { value: Number(f.value.toPrecision(4)), unit: f.unit, better: f.better, recorded: params.date, node: params.node };
  const sorted = Object.fromEntries(Object.entries(merged).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(params.path, `${JSON.stringify(sorted, null, 2)}\n`);
  return finite.length;
}
