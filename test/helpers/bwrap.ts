import { runBwrapProbe } from '../../src/tools/sandbox/probe.js';

/**
 * Whether the bubblewrap sandbox tests can run here (bwrap installed and able to make its namespaces). When they
 * cannot, `skip` says why; with HERMES_REQUIRE_BWRAP=1 (CI) that is a failure instead of a skip.
 */
export function bwrapAvailability(): { readonly skip: false } | { readonly skip: string } {
  const probe = runBwrapProbe();
  if (probe.ok) return { skip: false };
  const reason = `${probe.reason}: apt-get install bubblewrap to run the sandbox tests`;
  if (process.env['HERMES_REQUIRE_BWRAP'] === '1') throw new Error(`${reason} (HERMES_REQUIRE_BWRAP=1 requires them)`);
  return { skip: reason };
}
