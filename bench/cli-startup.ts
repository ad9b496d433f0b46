// `npm run bench:cli` (after `npm run build`), or part of `npm run bench`: whole-process times of the built `hermes`
// CLI next to a bare `node -e 0` measured in the same run.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openStore } from '../src/store/sqlite-store.js';
import { systemClock } from '../src/util/clock.js';
import { isMain } from '../src/util/is-main.js';
import { percentile } from './stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
// BENCH_CLI_ENTRY: another build's dist/src/cli/main.js (an older commit's, to compare in one run).
const entry = process.env['BENCH_CLI_ENTRY'] ?? path.join(root, 'dist', 'src', 'cli', 'main.js');

/** One measured command line. */
interface CliCase {
  readonly label: string;
  readonly args: readonly string[];
  readonly home: string;
  /** The goal for this case in ms (on these machines), when the issue sets one. */
  readonly goalMs?: number;
}

/** Whole-process times of each case, spawn → exit, in ms. */
export interface CliStartupFigures {
  readonly runs: number;
  readonly cases: readonly { readonly label: string; readonly goalMs?: number; readonly ms: readonly number[] }[];
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

/**
 * Three HERMES_HOMEs: fresh (nothing in it), configured (the default profile's config.yaml and .env, as after setup:
 * status validates them) and used (also a state.db, as after the first chat: status reads its next job).
 */
function homes(params: { dir: string }): { fresh: string; configured: string; used: string } {
  const make = (name: string): string => {
    const home = path.join(params.dir, name);
    mkdirSync(home, { recursive: true });
    return home;
  };
  const fresh = make('fresh');
  const configured = make('configured');
  const used = make('used');
  for (const home of [configured, used]) {
    writeFileSync(path.join(home, 'config.yaml'), 'model:\n  base_url: http://127.0.0.1:9/v1\n  name: gpt-4o-mini\n  api_key: ${OPENAI_API_KEY}\nplatforms:\n  telegram:\n    enabled: true\n    token: ${TELEGRAM_BOT_TOKEN}\n    allowed_users: ["@owner"]\n');
    writeFileSync(path.join(home, '.env'), 'OPENAI_API_KEY=sk-bench-cli-startup\nTELEGRAM_BOT_TOKEN=123456:bench-cli-startup-token\n', { mode: 0o600 });
  }
  openStore({ path: path.join(used, 'state.db'), clock: systemClock }).close();
  return { fresh, configured, used };
}

/**
 * Runs each case `runs` times, interleaved (one of each, then again), after one warm-up round, so that the load of
 * a shared machine falls on all of them alike; the built dist/ must exist (`npm run build`).
 */
export async function runCliStartup(params: { runs: number }): Promise<CliStartupFigures> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-bench-cli-'));
  try {
    const home = homes({ dir });
    const cases: CliCase[] = [
      { label: 'node -e 0', args: ['-e', '0'], home: home.fresh },
      { label: 'hermes --version', args: [entry, '--version'], home: home.fresh, goalMs: 90 },
      { label: 'hermes status (fresh HERMES_HOME)', args: [entry, 'status'], home: home.fresh, goalMs: 150 },
      { label: 'hermes status (config.yaml + .env)', args: [entry, 'status'], home: home.configured, goalMs: 150 },
      { label: 'hermes status (+ state.db)', args: [entry, 'status'], home: home.used, goalMs: 150 },
      { label: 'hermes --help', args: [entry, '--help'], home: home.fresh },
    ];
    const ms = cases.map(() => [] as number[]);
    for (let round = -1; round < params.runs; round++) {
      for (const [i, c] of cases.entries()) {
        const t = await timeOnce({ args: c.args, home: c.home });
        if (round >= 0) ms[i]?.push(t);
      }
    }
    return { runs: params.runs, cases: cases.map((c, i) => ({ label: c.label, ...(c.goalMs !== undefined ? { goalMs: c.goalMs } : {}), ms: ms[i] ?? [] })) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The printed lines: each case's median and min, and its median as a ratio to `node -e 0`'s. */
export function cliStartupLines(params: { figures: CliStartupFigures }): string[] {
  const median = (ms: readonly number[]): number => percentile({ sorted: [...ms].sort((a, b) => a - b), p: 50 });
  const base = median(params.figures.cases[0]?.ms ?? []);
  const width = Math.max(...params.figures.cases.map((c) => c.label.length));
  const ca = process.env['NODE_EXTRA_CA_CERTS'] !== undefined ? ', NODE_EXTRA_CA_CERTS set' : '';
  const lines = [`hermes CLI (${path.relative(root, entry)}), whole process (spawn → exit), median of ${params.figures.runs} interleaved runs, node ${process.version}${ca}:`];
  for (const c of params.figures.cases) {
    const m = median(c.ms);
    // The goals are ms with `node -e 0` at 65 ms; on a loaded machine the ratio is what compares.
    const ratioGoal = c.goalMs === undefined ? 0 : c.goalMs / 65;
    const goal = c.goalMs === undefined ? '' : `; goal ≤ ${c.goalMs} ms, ${ratioGoal.toFixed(2)}× (at 65 ms): ${m / base <= ratioGoal ? 'within' : 'over'}`;
    lines.push(`  ${c.label.padEnd(width)}  p50 ${m.toFixed(0).padStart(4)} ms, min ${Math.min(...c.ms).toFixed(0).padStart(4)} ms, ${(m / base).toFixed(2)}× node -e 0${goal}`);
  }
  return lines;
}

if (isMain({ moduleUrl: import.meta.url })) {
  const figures = await runCliStartup({ runs: Number.parseInt(process.env['BENCH_CLI_RUNS'] ?? '21', 10) });
  for (const line of cliStartupLines({ figures })) console.log(line);
}
