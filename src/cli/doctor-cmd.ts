import { credentialChecks } from '../doctor/credential-checks.js';
import { runDoctor } from '../doctor/run.js';
import { formatCheckLine } from '../core/check-line.js';
import { systemClock, type Clock } from '../core/clock.js';
import { profileFrom, type GlobalOptions } from './context.js';
import { println, type CliIO } from './output.js';

/** `hermes doctor`: one line per check (✓ ok, ✗ failed with a fix, ! worth knowing); exit 1 when any check failed. */
export async function doctor(params: { options: GlobalOptions; io: CliIO; clock?: Clock }): Promise<number> {
  const { io } = params;
  const profile = profileFrom(params);
  println({ stream: io.stdout, text: `hermes doctor: profile "${profile.name}" (${profile.dir})` });
  const lines = await runDoctor({
    profile,
    env: io.env,
    clock: params.clock ?? systemClock,
    checks: await credentialChecks(),
    report: (check) => println({ stream: io.stdout, text: formatCheckLine({ check }) }),
  });
  const failed = lines.filter((check) => check.status === 'fail').length;
  const warned = lines.filter((check) => check.status === 'warn').length;
  println({ stream: io.stdout, text: failed > 0 ? `${failed} problem${failed === 1 ? '' : 's'} to fix (see the fix: lines)` : `all good${warned > 0 ? ` (${warned} note${warned === 1 ? '' : 's'})` : ''}` });
  return failed > 0 ? 1 : 0;
}
