// `npm run bench:cli` (after `npm run build`), or part of `npm run bench`: whole-process times of the built `hermes`
// CLI next to a bare `node -e 0` measured in the same run.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../src/store/sqlite-store.js';
import { systemClock } from '../src/core/clock.js';
import { isMain } from '../src/util/is-main.js';
import { percentile } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
// BENCH_CLI_ENTRY: another build's dist/src/cli/main.js instead of this one's.
const entry = process.env['BENCH_CLI_ENTRY'] ?? path.join(root, 'dist', 'src', 'cli', 'main.js');
// BENCH_CLI_BASELINE: an older build's main.js (e.g. the commit before, built with `tsc --outDir`), measured in the
// same run, interleaved with this one, so that before and after meet the same load.
const baseline = process.env['BENCH_CLI_BASELINE'];

/** One measured command line. */
interface CliCase {
  readonly label: string;
  /** Which build: "" for `node -e 0`, else "after" (the entry) or "before" (BENCH_CLI_BASELINE). */
  readonly build: '' | 'after' | 'before';
  readonly args: readonly string[];
  readonly home: string;
  /** The goal for this case in ms (on these machines), when the issue sets one. */
  readonly goalMs?: number;
  /** Run before each timed run, untimed (e.g. an edit of config.yaml). */
  readonly prepare?: () => void;
}

/** Whole-process times of each case, spawn → exit, in ms. */
export interface CliStartupFigures {
  readonly runs: number;
  readonly cases: readonly { readonly label: string; readonly build: '' | 'after' | 'before'; readonly goalMs?: number; readonly ms: readonly number[] }[];
}

/**
 * Spawns `node ARGS` with HERMES_HOME=`home` and resolves with the time until it exited (it must exit 0). The rest of
 * the environment is this one's, as a user's shell passes it (NODE_EXTRA_CA_CERTS, which these machines set, costs
 * every node process ~35 ms; it is in the `node -e 0` figure too).
 */
async function timeOnce(params: { args: readonly string[]; home: string }): Promise<number> {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('HERMES_')));
  const t0 = performance.now();
  const child = spawn(process.execPath, [...params.args], { cwd: root, env: { ...inherited, HOME: params.home, HERMES_HOME: params.home }, stdio: 'ignore' });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (c) => resolve(c));
  });
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`node ${params.args.join(' ')} exited with ${code}`);
  return ms;
}

/** The benchmark's HERMES_HOMEs. */
interface Homes {
  readonly fresh: string;
  readonly configured: string;
  readonly used: string;
  readonly edited: string;
}

/**
 * Four HERMES_HOMEs: fresh (nothing in it), configured (the default profile's config.yaml and .env, as after setup:
 * status validates them once, then trusts its note while they stay the same), used (also a state.db, as after the
 * first chat: status reads its next job once, then from its note while the store is unchanged) and edited (as configured, but config.yaml changes before every run, so
 * status validates it every time).
 */
function homes(params: { dir: string }): Homes {
  const make = (name: string): string => {
    const home = path.join(params.dir, name);
    mkdirSync(home, { recursive: true });
    return home;
  };
  const fresh = make('fresh');
  const configured = make('configured');
  const used = make('used');
  const edited = make('edited');
  for (const home of [configured, used, edited]) {
    writeFileSync(path.join(home, 'config.yaml'), 'model:\n  base_url: http://127.0.0.1:9/v1\n  name: gpt-4o-mini\n  api_key: ${OPENAI_API_KEY}\nplatforms:\n  telegram:\n    enabled: true\n    token: ${TELEGRAM_BOT_TOKEN}\n    allowed_users: ["@owner"]\n');
    writeFileSync(path.join(home, '.env'), 'OPENAI_API_KEY=sk-bench-cli-startup\nTELEGRAM_BOT_TOKEN=123456:bench-cli-startup-token\n', { mode: 0o600 });
  }
  openStore({ path: path.join(used, 'state.db'), clock: systemClock }).close();
  return { fresh, configured, used, edited };
}

/** Sets state.db's modification time to now, as a write would: status reads its next job again. */
function touchStore(params: { home: string }): void {
  const now = new Date();
  utimesSync(path.join(params.home, 'state.db'), now, now);
}

/** Appends a comment line to config.yaml: another config for status's note, the same for the schema. */
function editConfig(params: { home: string }): void {
  appendFileSync(path.join(params.home, 'config.yaml'), `# edited ${performance.now()}\n`);
}

/** The hermes command lines measured for one build (`main` is its dist/src/cli/main.js). */
function hermesCases(params: { main: string; build: 'after' | 'before'; home: Homes }): CliCase[] {
  const { main, build, home } = params;
  return [
    { label: 'hermes --version', build, args: [main, '--version'], home: home.fresh, goalMs: 90 },
    { label: 'hermes status (fresh HERMES_HOME)', build, args: [main, 'status'], home: home.fresh, goalMs: 150 },
    { label: 'hermes status (config.yaml + .env)', build, args: [main, 'status'], home: home.configured, goalMs: 150 },
    { label: 'hermes status (+ state.db)', build, args: [main, 'status'], home: home.used, goalMs: 150 },
    { label: 'hermes status (config.yaml just edited)', build, args: [main, 'status'], home: home.edited, prepare: () => editConfig({ home: home.edited }) },
    { label: 'hermes status (state.db just written)', build, args: [main, 'status'], home: home.used, prepare: () => touchStore({ home: home.used }) },
    { label: 'hermes --help', build, args: [main, '--help'], home: home.fresh },
    { label: 'hermes doctor --help', build, args: [main, 'doctor', '--help'], home: home.fresh },
    { label: 'hermes config validate', build, args: [main, 'config', 'validate'], home: home.configured },
  ];
}

/**
 * Runs each case `runs` times, interleaved (one of each, then again), after one warm-up round, so that the load of
 * a shared machine falls on all of them alike; the built dist/ must exist (`npm run build`). With
 * BENCH_CLI_BASELINE, the older build's cases are interleaved with this one's.
 */
export async function runCliStartup(params: { runs: number }): Promise<CliStartupFigures> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-bench-cli-'));
  try {
    const home = homes({ dir });
    const cases: CliCase[] = [
      { label: 'node -e 0', build: '', args: ['-e', '0'], home: home.fresh },
      ...hermesCases({ main: entry, build: 'after', home }),
      ...(baseline !== undefined ? hermesCases({ main: baseline, build: 'before', home }) : []),
    ];
    const ms = cases.map(() => [] as number[]);
    for (let round = -1; round < params.runs; round++) {
      for (const [i, c] of cases.entries()) {
        c.prepare?.();
        const t = await timeOnce({ args: c.args, home: c.home });
        if (round >= 0) ms[i]?.push(t);
      }
    }
    return { runs: params.runs, cases: cases.map((c, i) => ({ label: c.label, build: c.build, ...(c.goalMs !== undefined ? { goalMs: c.goalMs } : {}), ms: ms[i] ?? [] })) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The printed lines: each case's median and min, both as ratios to `node -e 0`'s (the min ratio is the steadier on a
 * loaded machine), and the goal verdict on the median ratio; with a baseline, one before → after line per case.
 */
export function cliStartupLines(params: { figures: CliStartupFigures }): string[] {
  const median = (ms: readonly number[]): number => percentile({ sorted: [...ms].sort((a, b) => a - b), p: 50 });
  const node = params.figures.cases[0]?.ms ?? [];
  const base = median(node);
  const baseMin = Math.min(...node);
  const after = params.figures.cases.filter((c) => c.build !== 'before');
  const before = params.figures.cases.filter((c) => c.build === 'before');
  const width = Math.max(...after.map((c) => c.label.length));
  const ca = process.env['NODE_EXTRA_CA_CERTS'] !== undefined ? ', NODE_EXTRA_CA_CERTS set' : '';
  const lines = [`hermes CLI (${path.relative(root, entry)}), whole process (spawn → exit), median of ${params.figures.runs} interleaved runs, node ${process.version}${ca}:`];
  for (const c of after) {
    const m = median(c.ms);
    // The goals are ms with `node -e 0` at 65 ms; on a loaded machine the ratio is what compares.
    const ratioGoal = c.goalMs === undefined ? 0 : c.goalMs / 65;
    const goal = c.goalMs === undefined ? '' : `; goal ≤ ${c.goalMs} ms, ${ratioGoal.toFixed(2)}× (at 65 ms): ${m / base <= ratioGoal ? 'within' : 'over'}`;
    const min = Math.min(...c.ms);
    lines.push(`  ${c.label.padEnd(width)}  p50 ${m.toFixed(0).padStart(4)} ms, min ${min.toFixed(0).padStart(4)} ms, ${(m / base).toFixed(2)}× node -e 0 (min ${(min / baseMin).toFixed(2)}×)${goal}`);
  }
  if (before.length > 0) {
    lines.push(`before (${path.relative(root, baseline ?? '')}) → after, same run, as ratios to node -e 0, p50 (min):`);
    for (const b of before) {
      const a = after.find((c) => c.label === b.label);
      if (a === undefined) continue;
      const r = (ms: readonly number[]): string => `${(median(ms) / base).toFixed(2)}× (${(Math.min(...ms) / baseMin).toFixed(2)}×)`;
      lines.push(`  ${b.label.padEnd(width)}  ${r(b.ms).padStart(15)} → ${r(a.ms)}`);
    }
  }
  return lines;
}

if (isMain({ moduleUrl: import.meta.url })) {
  const figures = await runCliStartup({ runs: Number.parseInt(process.env['BENCH_CLI_RUNS'] ?? '21', 10) });
  for (const line of cliStartupLines({ figures })) console.log(line);
}
