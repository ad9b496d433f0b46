// `npm run bench`: the first model request's size, then gateway throughput and latency next to a bare fastify+SQLite baseline, in one run.
import { runBaseline } from './baseline.js';
import { cliStartupLines, runCliStartup } from './cli-startup.js';
import { compressLines, runCompressBench } from './compress.js';
import { firstSignLines, runFirstSign } from './first-sign.js';
import { runWiredCompressBench, wiredCompressLines } from './compress-wired.js';
import { runGateway } from './gateway.js';
import { promptSizeLines, runPromptSize, runSkillsIndexBench, skillsIndexLines } from './prompt-size.js';
import { runSessionSearchBench } from './session-search.js';
import { runStartup } from './startup.js';
import { runTokenBenches, tokenBenchLines } from './tokens.js';
import { percentile, row } from './stats.js';

// The fixed part of every model request (system prompt + tool schemas), measured first: it is quick.
for (const line of promptSizeLines({ figures: await runPromptSize() })) console.log(line);
// The same request with 100 generated skills: it grows by the skills index only.
for (const line of skillsIndexLines({ figures: await runSkillsIndexBench() })) console.log(line);
// The prompt-token estimate of a 200-message, ~150k-token history (before each model call): first, again, next call.
for (const line of tokenBenchLines({ figures: runTokenBenches() })) console.log(line);

// Whole-process times of the built CLI (`--version`, `status`) next to `node -e 0` in the same run.
for (const line of cliStartupLines({ figures: await runCliStartup({ runs: Number.parseInt(process.env['BENCH_CLI_RUNS'] ?? '21', 10) }) })) console.log(line);

// Inbound → typing and inbound → model request on Telegram for a lone short message, merge_window 1 s.
for (const line of firstSignLines({ figures: await runFirstSign({ runs: Number.parseInt(process.env['BENCH_FIRST_SIGN_RUNS'] ?? '15', 10) }) })) console.log(line);

// Compression of a 200-message, ~150k-token history without the model call (quick too).
for (const line of compressLines({ figures: await runCompressBench({ runs: 20 }) })) console.log(line);
for (const line of wiredCompressLines({ figures: await runWiredCompressBench({ runs: 20 }) })) console.log(line);

const messages = Number.parseInt(process.env['BENCH_MESSAGES'] ?? '2000', 10);
const concurrency = 50;

// Warm-up (JIT, SQLite page cache) so both measured runs start equal.
await runBaseline({ messages: 200, concurrency });
await runGateway({ messages: 200, concurrency });

const baseline = await runBaseline({ messages, concurrency });
const gateway = await runGateway({ messages, concurrency });
const rate = (r: { messages: number; seconds: number }): number => r.messages / r.seconds;
console.log(`node ${process.version}, ${messages} messages, ${concurrency} in flight`);
console.log(row({ run: baseline }));
console.log(row({ run: gateway }));
console.log(`gateway/baseline throughput: ${(rate(gateway) / rate(baseline)).toFixed(2)}`);
console.log(`gateway: last replies finished ${gateway.drainSeconds.toFixed(2)} s after the last first-send (final edits wait out the 1 s edit interval); RSS ${gateway.rssMb.toFixed(0)} MB`);

// Start-up to ready and idle memory of a real, built `gateway run` child against the fakes: every platform, then
// Telegram alone (platform SDKs are loaded only for enabled platforms).
const startups = Number.parseInt(process.env['BENCH_STARTUPS'] ?? '3', 10);
for (const only of [undefined, ['telegram'] as const]) {
  const startup = await runStartup({ runs: startups, idleMs: 5000, ...(only ? { only } : {}) });
  const sortedReady = [...startup.readyMs].sort((a, b) => a - b);
  console.log(
    `gateway run (${startup.platforms.join(', ')}): ready in p50 ${percentile({ sorted: sortedReady, p: 50 }).toFixed(0)} ms, ` +
      `max ${Math.max(...startup.readyMs).toFixed(0)} ms over ${startup.readyMs.length} starts (spawn → /healthz ok, built dist/); ` +
      `listening after p50 ${percentile({ sorted: [...startup.listeningMs].sort((a, b) => a - b), p: 50 }).toFixed(0)} ms`,
  );
  console.log(`  idle RSS (one gateway process, ${startup.idleMs / 1000} s after ready): ${startup.idleRssMb.map((mb) => `${mb.toFixed(0)} MB`).join(', ')}`);
}

// session_search over a store of 1,000,000 messages (built here, in a temp dir): p50/p95/max per query class.
await runSessionSearchBench({
  messages: Number.parseInt(process.env['BENCH_SEARCH_MESSAGES'] ?? '1000000', 10),
  sessions: Number.parseInt(process.env['BENCH_SEARCH_SESSIONS'] ?? '10000', 10),
  samples: 60,
  beforeSamples: 10,
});
