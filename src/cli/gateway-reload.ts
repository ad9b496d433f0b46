import { UserFacingError } from '../core/errors.js';
import { readGatewayState } from '../home/gateway-state.js';
import { gatewayPid } from '../home/stop-gateway.js';
import { systemClock, type Clock } from '../core/clock.js';
import { profileFrom, type GlobalOptions } from './context.js';
import { println, type CliIO } from './output.js';

/** How long `gateway reload` waits for the gateway to report the result. */
const RESULT_WAIT_MS = 15_000;

/**
 * `hermes gateway reload`: sends SIGHUP to the profile's running gateway, which re-reads config.yaml and .env,
 * then prints what the reload did (from gateway.json). Exit 1 when no gateway runs, 78 when the new config was
 * refused (the gateway keeps the old one).
 */
export async function gatewayReload(params: {
  options: GlobalOptions;
  io: CliIO;
  clock?: Clock;
  /** Sends the signal (tests). */
  send?: (pid: number, signal: NodeJS.Signals) => void;
}): Promise<number> {
  const { io } = params;
  const clock = params.clock ?? systemClock;
  const profile = profileFrom(params);
  const pid = gatewayPid({ profile });
  if (pid === null) {
    throw new UserFacingError({
      message: `the gateway for profile "${profile.name}" is not running, so there is nothing to reload`,
      hint: `Start it with \`hermes -p ${profile.name} gateway run\` (or \`hermes -p ${profile.name} gateway start\` when installed as a service); it reads the config when it starts.`,
      exitCode: 1,
    });
  }
  const sentAt = clock.now();
  (params.send ?? ((target, signal) => void process.kill(target, signal)))(pid, 'SIGHUP');
  println({ stream: io.stdout, text: `asked the gateway of profile "${profile.name}" (pid ${pid}) to reload its config` });
  for (const deadline = clock.now() + RESULT_WAIT_MS; clock.now() < deadline; await clock.sleep(100)) {
    const result = readGatewayState({ profile })?.lastReload;
    if (result === undefined || result.at < sentAt) continue;
    if (result.ok) {
      println({ stream: io.stdout, text: `reloaded: ${result.summary}` });
      return 0;
    }
    throw new UserFacingError({
      message: `the new config was refused: ${result.summary}`,
      hint: `The gateway keeps running with its previous config. Fix the problem (\`hermes -p ${profile.name} config validate\`) and reload again.`,
      exitCode: 78,
    });
  }
  println({ stream: io.stdout, text: `no result yet; see the log (${profile.logFile}) for what the reload did` });
  return 0;
}
