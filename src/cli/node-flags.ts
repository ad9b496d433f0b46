/**
 * The V8 options and the malloc settings `hermes` runs with, and the launcher lines that apply them to the built CLI.
 *
 * `--max-semi-space-size`: V8's young generation otherwise grows to 2 × 16 MB under a steady load and keeps it, which
 * is most of what a gateway's resident memory climbs by after start (measured: an hour at 1 msg/s stepped from ~105
 * to ~140 MB; at 4 msg/s over 20 chats the RSS sat at 137–151 MB by default against 116–122 MB with 2 MB and
 * 122–127 MB with 4 MB, the JS heap in use the same 24–40 MB in each). The young space is only a nursery for
 * short-lived objects, so a smaller one collects more often: bench/README "Issue 27" has the CPU it costs.
 * V8 reads the option when the process starts (v8.setFlagsFromString later does not resize the space), so it has to
 * be on node's command line: the built CLI starts through /bin/sh for that (launcherLines), the systemd unit passes
 * it to node, and the benches run their children the same way.
 *
 * `--heap-growing-percent=100`: after each full collection V8 lets the old generation grow to a multiple of what
 * survived before collecting it again, a multiple it picks from its collection and allocation speeds, up to 4. Under a
 * burst it picks the top: in 2,000 messages as fast as they were taken the old space grew to 107 MB with 56 MB in
 * use and ~20 MB alive, and the RSS to 205–225 MB. Held at 2, the same bursts peaked at 148–152 MB with no CPU
 * difference beyond the noise (bench/README, issue 27's fourth session). At a slow steady rate it changes nothing
 * measurable.
 */
export const NODE_FLAGS: readonly string[] = ['--max-semi-space-size=4', '--heap-growing-percent=100'];

/**
 * glibc's malloc with fixed thresholds: blocks of 128 KB and more are mapped on their own and given back when freed,
 * and free memory at the top of the heap is returned past 128 KB. By default glibc raises both thresholds after the
 * first large block is freed, so a burst's buffers and SQLite's caches stay resident long after: measured, the RSS a
 * minute after a 2,000-message burst was 125/132 MB (30/44 over ready) by default and 112/111 MB (19/25 over) with
 * these, with no CPU difference beyond the noise. A GLIBC_TUNABLES already set is left as it is; musl ignores it.
 */
export const GLIBC_TUNABLES = 'glibc.malloc.mmap_threshold=131072:glibc.malloc.trim_threshold=131072';

/** The environment `hermes` adds for itself: what the launcher exports unless it is set already. */
export function processEnv(params: { env: Readonly<Record<string, string | undefined>> }): Record<string, string> {
  return { GLIBC_TUNABLES: params.env['GLIBC_TUNABLES'] ?? GLIBC_TUNABLES };
}

/**
 * The first two lines of the built `dist/src/cli/main.js`, in place of `#!/usr/bin/env node`: run as a program, /bin/sh
 * reads the second line as `:` (a no-op), exports GLIBC_TUNABLES unless it is set, and execs node with NODE_FLAGS on
 * the same file; node reads the line as a string and a comment. `node dist/src/cli/main.js` runs without either (the
 * systemd unit and the benches pass them themselves).
 */
export function launcherLines(): string {
  return `#!/bin/sh\n':' //; export GLIBC_TUNABLES="\${GLIBC_TUNABLES:-${GLIBC_TUNABLES}}"; exec node ${NODE_FLAGS.join(' ')} "$0" "$@"\n`;
}
