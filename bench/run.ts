// `npm run bench`: the first model request's size, then gateway throughput and latency next to a bare fastify+SQLite baseline
// (in process, then the built gateway as its own process: CPU per message, memory through a burst, latency at 50 msg/s), in one run.
import { burstFigures, burstLines } from './burst-report.js';
import { burstParamsFromEnv, runBurst } from './burst.js';
import { cliStartupLines, runCliStartup } from './cli-startup.js';
import { compressLines, runCompressBench } from './compress.js';
import { firstSignLines, runFirstSign } from './first-sign.js';
import { runWiredCompressBench, wiredCompressLines } from './compress-wired.js';
import { writeRunFigures } from './figure-files.js';
import { compressFigures, tokenFigures, wiredCompressFigures } from './figures-of.js';
import type { Figure } from './figures.js';
import { inProcessFigures, inProcessLines, runInProcess } from './inprocess.js';
import { pacedFigures, pacedLines, pacedParamsFromEnv, runPaced } from './paced.js';
import { promptSizeLines, runPromptSize, runSkillsIndexBench, skillsIndexLines } from './prompt-size.js';
import { runSessionSearchBench } from './session-search.js';
import { startupFigures, startupLines } from './startup-report.js';
import { runStartup } from './startup.js';
import { runTokenBenches, tokenBenchLines } from './tokens.js';

/** Named figures of this run (BENCH_FIGURES_OUT=FILE writes them, for `npm run bench:check -- --from FILE`). */
const figures: Figure[] = [];

// The fixed part of every model request (system prompt + tool schemas), measured first: it is quick.
for (const line of promptSizeLines({ figures: await runPromptSize() })) console.log(line);
// The same request with 100 generated skills: it grows by the skills index only.
for (const line of skillsIndexLines({ figures: await runSkillsIndexBench() })) console.log(line);
// The prompt-token estimate of a 200-message, ~150k-token history (before each model call): first, again, next call.
const tokens = runTokenBenches();
for (const line of tokenBenchLines({ figures: tokens })) console.log(line);
figures.push(...tokenFigures({ figures: tokens }));

// Whole-process times of the built CLI (`--version`, `status`) next to `node -e 0` in the same run.
for (const line of cliStartupLines({ figures: await runCliStartup({ runs: Number.parseInt(process.env['BENCH_CLI_RUNS'] ?? '21', 10) }) })) console.log(line);

// Inbound → typing and inbound → model request on Telegram for a lone short message, merge_window 1 s.
for (const line of firstSignLines({ figures: await runFirstSign({ runs: Number.parseInt(process.env['BENCH_FIRST_SIGN_RUNS'] ?? '15', 10) }) })) console.log(line);

// Compression of a 200-message, ~150k-token history without the model call (quick too).
const compress = await runCompressBench({ runs: 20 });
for (const line of compressLines({ figures: compress })) console.log(line);
figures.push(...compressFigures({ figures: compress }));
const wired = await runWiredCompressBench({ runs: 20 });
for (const line of wiredCompressLines({ figures: wired })) console.log(line);
figures.push(...wiredCompressFigures({ figures: wired }));

// The in-process gateway path next to the floor (both closed loop, 50 in flight; BENCH_MESSAGES, default 2000).
const inProcess = await runInProcess({ messages: burstParamsFromEnv().messages, concurrency: 50 });
for (const line of inProcessLines({ figures: inProcess })) console.log(line);
figures.push(...inProcessFigures({ figures: inProcess }));

// The built gateway as its own process through the API platform: its own CPU per message, its RSS through a burst and
// after idling (BENCH_SETTLE_MS, default 60 s), capacity next to the floor's; then the latency it adds at 50 msg/s.
const burst = await runBurst(burstParamsFromEnv());
for (const line of burstLines({ figures: burst })) console.log(line);
figures.push(...burstFigures({ figures: burst }));
const pacedRun = await runPaced(pacedParamsFromEnv());
for (const line of pacedLines({ figures: pacedRun })) console.log(line);
figures.push(...pacedFigures({ figures: pacedRun }));

// Start-up to ready and idle memory of a real, built `gateway run` child against the fakes: every platform, then
// Telegram alone (platform SDKs are loaded only for enabled platforms).
const startups = Number.parseInt(process.env['BENCH_STARTUPS'] ?? '3', 10);
for (const only of [undefined, ['telegram'] as const]) {
  const startup = await runStartup({ runs: startups, idleMs: 5000, ...(only ? { only } : {}) });
  for (const line of startupLines({ figures: startup })) console.log(line);
  figures.push(...startupFigures({ figures: startup, key: only ? only.join('+') : 'all' }));
}

// The figures for `npm run bench:check -- --from FILE`.
const figuresOut = process.env['BENCH_FIGURES_OUT'];
if (figuresOut) writeRunFigures({ path: figuresOut, figures });

// session_search over a store of 1,000,000 messages (built here, in a temp dir): p50/p95/max per query class.
await runSessionSearchBench({
  messages: Number.parseInt(process.env['BENCH_SEARCH_MESSAGES'] ?? '1000000', 10),
  sessions: Number.parseInt(process.env['BENCH_SEARCH_SESSIONS'] ?? '10000', 10),
  samples: 60,
  beforeSamples: 10,
});
