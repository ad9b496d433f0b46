// The in-process gateway path (test adapter, harness, fake model: all in this process) next to the floor, closed loop.
import { runBaseline } from './baseline.js';
import type { Figure } from './figures.js';
import { runGateway } from './gateway.js';
import { percentile, row, type RunFigures } from './stats.js';

/** Both runs of one invocation. */
export interface InProcessFigures {
  readonly concurrency: number;
  readonly baseline: RunFigures;
  readonly gateway: RunFigures & { rssMb: number; drainSeconds: number };
}

/** A warm-up of each (200 messages: JIT, SQLite page cache), then the floor and the gateway, `messages` each. */
export async function runInProcess(params: { messages: number; concurrency: number }): Promise<InProcessFigures> {
  await runBaseline({ messages: 200, concurrency: params.concurrency });
  await runGateway({ messages: 200, concurrency: params.concurrency });
  const baseline = await runBaseline(params);
  const gateway = await runGateway(params);
  return { concurrency: params.concurrency, baseline, gateway };
}

/** Messages per second of a run. */
function rate(params: { messages: number; seconds: number }): number {
  return params.messages / params.seconds;
}

/** The printed report (as `npm run bench` has printed it). */
export function inProcessLines(params: { figures: InProcessFigures }): string[] {
  const { baseline, gateway, concurrency } = params.figures;
  return [
    `node ${process.version}, ${gateway.messages} messages, ${concurrency} in flight`,
    row({ run: baseline }),
    row({ run: gateway }),
    `gateway/baseline throughput: ${(rate(gateway) / rate(baseline)).toFixed(2)}`,
    `gateway: last replies finished ${gateway.drainSeconds.toFixed(2)} s after the last first-send (final edits wait out the 1 s edit interval); RSS ${gateway.rssMb.toFixed(0)} MB`,
  ];
}

/** The named figures for bench:check. */
export function inProcessFigures(params: { figures: InProcessFigures }): Figure[] {
  const { baseline, gateway } = params.figures;
  const sorted = [...gateway.latenciesMs].sort((a, b) => a - b);
  return [
    { name: 'inprocess.capacity', value: rate(gateway), unit: 'msg/s', better: 'higher' },
    { name: 'inprocess.floor_capacity', value: rate(baseline), unit: 'msg/s', better: 'higher' },
    { name: 'inprocess.capacity_ratio', value: rate(gateway) / rate(baseline), unit: '×floor', better: 'higher' },
    { name: 'inprocess.first_send_p50', value: percentile({ sorted, p: 50 }), unit: 'ms', better: 'lower' },
  ];
}
