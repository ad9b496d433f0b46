// `npm run bench:check`: runs the quick benches (or reads a run's figures with --from) and compares every figure with
// bench/recorded.json, flagging those that moved more than 25% the wrong way (exit code 1 then). Not part of CI.
//   --only a,b       run only these benches (see --help for the names)
//   --from FILE      compare the figures in FILE (written by --out, or by `npm run bench` with BENCH_FIGURES_OUT;
//                    '-' reads standard input) instead of running anything
//   --out FILE       also write this run's figures to FILE
//   --record         write this run's figures into bench/recorded.json as the new recorded ones (others kept)
//   --threshold PCT  the change flagged, in percent (default 25)
import { parseArgs } from 'node:util';
import { compare, comparisonLines } from './compare.js';
import { readRecorded, readRunFigures, RECORDED_PATH, today, writeRecorded, writeRunFigures } from './figure-files.js';
import type { Figure } from './figures.js';
import { quickBenches } from './quick.js';

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    from: { type: 'string' },
    out: { type: 'string' },
    record: { type: 'boolean', default: false },
    threshold: { type: 'string', default: '25' },
    help: { type: 'boolean', default: false },
  },
});

const names = quickBenches.map((b) => b.name);
if (values.help) {
  console.log('npm run bench:check -- [--only a,b] [--from FILE|-] [--out FILE] [--record] [--threshold PCT]');
  console.log(`benches: ${names.join(', ')}`);
  process.exit(0);
}

const threshold = Number.parseFloat(values.threshold) / 100;
if (!Number.isFinite(threshold) || threshold <= 0) {
  console.error(`--threshold takes a positive percentage, not ${values.threshold}`);
  process.exit(2);
}

/** Runs the chosen quick benches, printing their lines as each finishes; their figures. */
async function runQuick(params: { only: readonly string[] | undefined }): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const bench of quickBenches.filter((b) => params.only === undefined || params.only.includes(b.name))) {
    const out = await bench.run();
    for (const line of out.lines) console.log(line);
    figures.push(...out.figures);
  }
  return figures;
}

const only = values.only?.split(',').map((n) => n.trim());
const unknown = (only ?? []).filter((n) => !names.includes(n));
if (unknown.length > 0) {
  console.error(`no bench named ${unknown.join(', ')}; there are ${names.join(', ')}`);
  process.exit(2);
}

let figures: Figure[];
/** When and on which node the figures were taken (recorded with them). */
let taken = { date: today(), node: process.version };
if (values.from !== undefined) {
  const run = readRunFigures({ path: values.from });
  console.log(`figures of a run on ${run.date}, node ${run.node} (${values.from})`);
  figures = run.figures;
  taken = { date: run.date, node: run.node };
} else {
  figures = await runQuick({ only });
}
if (values.out !== undefined) writeRunFigures({ path: values.out, figures });

const recorded = readRecorded({ path: RECORDED_PATH });
const comparisons = compare({ figures, recorded, threshold });
console.log('');
for (const line of comparisonLines({ comparisons, threshold })) console.log(line);
const flagged = comparisons.filter((c) => c.flagged).length;
const measured = new Set(figures.map((f) => f.name));
const unmeasured = Object.keys(recorded).filter((n) => !measured.has(n));
if (unmeasured.length > 0) console.log(`recorded but not in this run: ${unmeasured.join(', ')}`);
console.log(flagged === 0 ? `no figure moved more than ${values.threshold}% the wrong way` : `${flagged} figure(s) moved more than ${values.threshold}% the wrong way`);

if (values.record) {
  const written = writeRecorded({ path: RECORDED_PATH, recorded, figures, ...taken });
  console.log(`recorded ${written} figures in ${RECORDED_PATH}`);
} else if (flagged > 0) {
  process.exitCode = 1;
}
