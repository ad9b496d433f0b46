// Start-up and idle memory of the built gateway: printed lines and named figures.
import type { Figure } from './figures.js';
import { percentile } from './stats.js';
import type { StartupFigures } from './startup.js';

/** Median of samples. */
function median(params: { samples: readonly number[] }): number {
  return percentile({ sorted: [...params.samples].sort((a, b) => a - b), p: 50 });
}

/** The printed report (as `npm run bench` has printed it). */
export function startupLines(params: { figures: StartupFigures }): string[] {
  const f = params.figures;
  return [
    `gateway run (${f.platforms.join(', ')}): ready in p50 ${median({ samples: f.readyMs }).toFixed(0)} ms, ` +
      `max ${Math.max(...f.readyMs).toFixed(0)} ms over ${f.readyMs.length} starts (spawn → /healthz ok, built dist/); ` +
      `listening after p50 ${median({ samples: f.listeningMs }).toFixed(0)} ms`,
    `  idle RSS (one gateway process, ${f.idleMs / 1000} s after ready): ${f.idleRssMb.map((mb) => `${mb.toFixed(0)} MB`).join(', ')}`,
  ];
}

/** The named figures for bench:check, under `startup.<key>.` (key: which platforms, e.g. `all`, `telegram`). */
export function startupFigures(params: { figures: StartupFigures; key: string }): Figure[] {
  const f = params.figures;
  return [
    { name: `startup.${params.key}.ready_p50`, value: median({ samples: f.readyMs }), unit: 'ms', better: 'lower' },
    { name: `startup.${params.key}.idle_rss`, value: median({ samples: f.idleRssMb }), unit: 'MB', better: 'lower' },
  ];
}
