// Named figures of the benches that print their own lines (token estimate, compression), for bench:check.
import type { CompressBenchFigures } from './compress.js';
import type { WiredCompressFigures } from './compress-wired.js';
import type { Figure } from './figures.js';
import { percentile } from './stats.js';
import type { TokenBenchFigures } from './tokens.js';

/** Median of samples. */
function median(params: { samples: readonly number[] }): number {
  return percentile({ sorted: [...params.samples].sort((a, b) => a - b), p: 50 });
}

/** tokens.<model>.{first,again,next_call}. */
export function tokenFigures(params: { figures: readonly TokenBenchFigures[] }): Figure[] {
  return params.figures.flatMap((f) => [
    { name: `tokens.${f.model}.first`, value: f.coldMs, unit: 'ms', better: 'lower' as const },
    { name: `tokens.${f.model}.again`, value: f.warmMs, unit: 'ms', better: 'lower' as const },
    { name: `tokens.${f.model}.next_call`, value: f.nextCallMs, unit: 'ms', better: 'lower' as const },
  ]);
}

/** compress.{first,step1_p50,step3_p50}. */
export function compressFigures(params: { figures: CompressBenchFigures }): Figure[] {
  const f = params.figures;
  return [
    { name: 'compress.first', value: f.coldMs, unit: 'ms', better: 'lower' },
    { name: 'compress.step1_p50', value: median({ samples: f.warmMs }), unit: 'ms', better: 'lower' },
    { name: 'compress.step3_p50', value: median({ samples: f.forcedMs }), unit: 'ms', better: 'lower' },
  ];
}

/** compress_wired.{total_p50,prompt_p50}. */
export function wiredCompressFigures(params: { figures: WiredCompressFigures }): Figure[] {
  const f = params.figures;
  return [
    { name: 'compress_wired.total_p50', value: median({ samples: f.totalMs }), unit: 'ms', better: 'lower' },
    { name: 'compress_wired.prompt_p50', value: median({ samples: f.promptMs }), unit: 'ms', better: 'lower' },
  ];
}
