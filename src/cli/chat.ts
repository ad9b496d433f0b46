import os from 'node:os';
import { TerminalAdapter } from '../../adapters/terminal/adapter.js';
import { buildGateway } from '../gateway/bootstrap.js';
import { UserFacingError } from '../gateway/errors.js';
import { modelLabel, modelProblem } from '../gateway/model-check.js';
import { systemClock } from '../util/clock.js';
import { loadProfile, openLog, type GlobalOptions } from './context.js';
import { println, type CliIO } from './output.js';

/** True when the user types into a terminal (not a pipe or file). */
function stdinIsTTY(io: CliIO): boolean {
  return 'isTTY' in io.stdin && io.stdin.isTTY === true;
}

/**
 * `hermes chat`: talk to the agent from the terminal, through the same runner, mailbox, agent and store as
 * every platform. Slash commands work; Ctrl-D ends it.
 */
export async function chat(params: { options: GlobalOptions; io: CliIO }): Promise<number> {
  const { io } = params;
  let loaded = await loadProfile(params);
  const problem = modelProblem({ config: loaded.config, configPath: loaded.profile.configPath, envPath: loaded.profile.envPath });
  // On a terminal, offer `hermes setup model` (then load the profile again); otherwise say how to set one up.
  if (problem !== null && (await (await import('./setup/offer.js')).offerModelSetup({ ...params, problem }))) loaded = await loadProfile(params);
  else if (problem !== null) throw new UserFacingError({ message: problem.split('\n')[0] ?? problem, hint: `${problem.split('\n').slice(1).join('\n')}\nOr run \`hermes setup\`: it asks for the endpoint and key and tests them.`, exitCode: 78 });
  const { profile, config } = loaded;
  const log = openLog({ loaded, tty: false });
  let ended: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const terminal = new TerminalAdapter({
    input: io.stdin,
    output: io.stdout,
    cursor: config.stream.cursor,
    clock: systemClock,
    user: os.userInfo().username,
    onEnd: () => ended(),
    // Tool activity is dimmed on a terminal; a pipe or file gets it as plain lines (no escape codes).
    dim: io.isTTY,
  });
  try {
    const { runner } = buildGateway({
      profile,
      config,
      clock: systemClock,
      logger: log.logger,
      // Typed lines follow the configured busy policy; piped input is a script, so its lines queue.
      adapters: [{ adapter: terminal, allow: 'all', localOwner: true, editIntervalMs: 250, ...(stdinIsTTY(io) ? {} : { busyPolicy: 'queue' as const }) }],
      withHttp: false,
      scrub: (text) => loaded.redactor.scrub(text),
      secrets: loaded.redactor,
    });
    const banner = `hermes chat — profile "${profile.name}", ${modelLabel({ config })}. /help for commands, Ctrl-D to leave.`;
    println({ stream: io.stdout, text: loaded.redactor.scrub(banner) });
    await runner.start();
    process.once('SIGINT', () => ended());
    await done;
    await runner.waitIdle();
    await runner.stop();
    println({ stream: io.stdout, text: '' });
    return 0;
  } finally {
    await log.close();
  }
}
