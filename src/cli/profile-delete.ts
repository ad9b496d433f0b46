import { rmSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { UserFacingError } from '../core/errors.js';
import { activeProfilePath, readActiveProfile } from '../home/active-profile.js';
import type { Profile } from '../home/profile.js';
import { stopGateway } from '../home/stop-gateway.js';
import { systemClock, type Clock } from '../core/clock.js';
import { drainTimeoutOf } from './gateway-drain.js';
import { println, type CliIO } from './output.js';
import { existingProfile, hermesHomeOf, namedProfile } from './profile-names.js';
import { removeServices } from './profile-service.js';
import { realSystemd, type SystemdDeps } from './systemctl.js';

/** What the gateway gets beyond its drain timeout before SIGKILL. */
const STOP_MARGIN_MS = 5_000;

/** Reads one line from `input`; null at end of input. */
export function readLine(params: { input: Readable }): Promise<string | null> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: params.input, terminal: false });
    let answered = false;
    rl.once('line', (line) => {
      answered = true;
      rl.close();
      resolve(line);
    });
    rl.once('close', () => {
      if (!answered) resolve(null);
    });
  });
}

/** Stops the profile's gateway if it runs: SIGTERM, up to drain_timeout + 5 s, then SIGKILL. */
async function stopIfRunning(params: { io: CliIO; profile: Profile; clock: Clock; out: (text: string) => void }): Promise<void> {
  const graceMs = (await drainTimeoutOf({ profile: params.profile, env: params.io.env })) + STOP_MARGIN_MS;
  const result = await stopGateway({ profile: params.profile, clock: params.clock, graceMs });
  if (result.kind === 'exited') params.out(`stopped its gateway (pid ${result.pid})`);
  if (result.kind === 'killed') params.out(`its gateway (pid ${result.pid}) did not stop within ${Math.round(graceMs / 1000)}s and was killed`);
  if (result.kind === 'survived') {
    throw new UserFacingError({ message: `the gateway of profile "${params.profile.name}" (pid ${result.pid}) does not exit, even after SIGKILL`, hint: 'Nothing was deleted. Check the process (ps), then try again.' });
  }
}

/**
 * `hermes profile delete NAME [--yes]`: asks for the name to be typed (unless `yes`), stops the gateway, removes
 * the systemd service and deletes the directory. Deleting the sticky default resets it to "default".
 */
export async function profileDelete(params: { io: CliIO; name: string; yes: boolean; clock?: Clock; systemd?: SystemdDeps }): Promise<number> {
  const { io } = params;
  const hermesHome = hermesHomeOf({ io });
  namedProfile({ hermesHome, name: params.name });
  const profile = existingProfile({ hermesHome, name: params.name });
  const out = (text: string): void => println({ stream: io.stdout, text });
  if (!params.yes) {
    io.stdout.write(`This deletes ${profile.dir} with its history, memories and secrets. Type the profile name ("${profile.name}") to confirm: `);
    const answer = await readLine({ input: io.stdin });
    if (!('isTTY' in io.stdin && io.stdin.isTTY === true)) out(''); // a terminal echoed the newline already
    if (answer?.trim() !== profile.name) {
      println({ stream: io.stderr, text: `aborted: ${answer === null ? 'no answer' : 'the name did not match'}; nothing was deleted` });
      return 1;
    }
  }
  await stopIfRunning({ io, profile, clock: params.clock ?? systemClock, out });
  for (const line of removeServices({ profileName: profile.name, env: io.env, deps: params.systemd ?? realSystemd })) out(line);
  rmSync(profile.dir, { recursive: true, force: true });
  out(`deleted profile "${profile.name}" (${profile.dir})`);
  if (readActiveProfile({ hermesHome }) === profile.name) {
    rmSync(activeProfilePath({ hermesHome }), { force: true });
    out('it was the active profile: commands without -p now use "default"');
  }
  return 0;
}
