// Named figures: what a bench reports for `npm run bench:check` to compare against bench/recorded.json.

/** Which way a figure improves. */
export type Better = 'lower' | 'higher';

/** One measured value under a stable name (`burst.child_cpu_ms_per_msg`). */
export interface Figure {
  readonly name: string;
  readonly value: number;
  readonly unit: string;
  readonly better: Better;
}
