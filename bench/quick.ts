// The benches `npm run bench:check` runs (minutes, not the hour of a soak or the million-message search store), each
// giving its printed lines and its named figures.
import { burstFigures, burstLines } from './burst-report.js';
import { burstParamsFromEnv, runBurst } from './burst.js';
import { runWiredCompressBench, wiredCompressLines } from './compress-wired.js';
import { compressLines, runCompressBench } from './compress.js';
import { compressFigures, tokenFigures, wiredCompressFigures } from './figures-of.js';
import type { Figure } from './figures.js';
import { inProcessFigures, inProcessLines, runInProcess } from './inprocess.js';
import { pacedFigures, pacedLines, pacedParamsFromEnv, runPaced } from './paced.js';
import { startupFigures, startupLines } from './startup-report.js';
import { runStartup } from './startup.js';
import { runTokenBenches, tokenBenchLines } from './tokens.js';

/** One bench's output. */
export interface BenchOutput {
  readonly lines: readonly string[];
  readonly figures: readonly Figure[];
}

/** A bench bench:check can run. */
export interface QuickBench {
  readonly name: string;
  run(): Promise<BenchOutput>;
}

/** Both at once, from one bench's figures. */
function output<T>(params: { figures: T; lines: (p: { figures: T }) => string[]; named: (p: { figures: T }) => Figure[] }): BenchOutput {
  return { lines: params.lines({ figures: params.figures }), figures: params.named({ figures: params.figures }) };
}

/** In the order they run. BENCH_MESSAGES, BENCH_SETTLE_MS, BENCH_PACED_SECONDS, BENCH_STARTUPS shorten them. */
export const quickBenches: readonly QuickBench[] = [
  { name: 'tokens', run: async () => output({ figures: runTokenBenches(), lines: tokenBenchLines, named: tokenFigures }) },
  { name: 'compress', run: async () => output({ figures: await runCompressBench({ runs: 20 }), lines: compressLines, named: compressFigures }) },
  { name: 'compress-wired', run: async () => output({ figures: await runWiredCompressBench({ runs: 20 }), lines: wiredCompressLines, named: wiredCompressFigures }) },
  {
    name: 'inprocess',
    run: async () => output({ figures: await runInProcess({ messages: burstParamsFromEnv().messages, concurrency: 50 }), lines: inProcessLines, named: inProcessFigures }),
  },
  { name: 'burst', run: async () => output({ figures: await runBurst(burstParamsFromEnv()), lines: burstLines, named: burstFigures }) },
  { name: 'paced', run: async () => output({ figures: await runPaced(pacedParamsFromEnv()), lines: pacedLines, named: pacedFigures }) },
  {
    name: 'startup',
    run: async () => {
      const figures = await runStartup({ runs: Number.parseInt(process.env['BENCH_STARTUPS'] ?? '3', 10), idleMs: 5000, only: ['telegram'] });
      return { lines: startupLines({ figures }), figures: startupFigures({ figures, key: 'telegram' }) };
    },
  },
];
