import type { Logger } from 'pino';
import type { GatewayConfig } from '../config/schema.js';
import { profileTimeZone } from '../util/schedule/time-zone.js';
import type { Clock } from '../core/clock.js';
import { runChecks, type CommandRunner } from './checks.js';
import { fileFiredChecks, firedChecksFile, type FiredChecks } from './checks-fired.js';
import { heartbeatFile, runHeartbeat } from './heartbeat.js';
import type { InjectTurn } from './inject-request.js';

/**
 * Runs a profile's heartbeat and checks from its config until `signal` aborts (resolves when both stopped): the one
 * call the gateway makes, with `inject` = runner.inject aimed at the home channel of the request's platform.
 * HEARTBEAT.md and checks-fired.json live in `profileDir`; commands run in the workspace with tools.terminal's limits;
 * quiet hours are read in `timezone` (default the host's).
 */
export async function runUnasked(params: {
  config: GatewayConfig;
  profileDir: string;
  inject: InjectTurn;
  clock: Clock;
  signal: AbortSignal;
  logger: Logger;
  fired?: FiredChecks;
  run?: CommandRunner;
}): Promise<void> {
  const { config, profileDir, inject, clock, signal, logger } = params;
  const fired = params.fired ?? fileFiredChecks({ file: firedChecksFile({ profileDir }) });
  await Promise.all([
    runHeartbeat({ config: config.heartbeat, timeZone: profileTimeZone({ config }), file: heartbeatFile({ profileDir }), inject, clock, signal, logger, maxChars: config.agent.context_file_max_chars }),
    runChecks({
      checks: config.checks,
      defaultTarget: config.heartbeat.target,
      workspace: config.tools.workspace,
      limits: { timeoutMs: config.tools.terminal.timeout, maxOutputBytes: config.tools.terminal.max_output_bytes },
      fired,
      inject,
      clock,
      signal,
      logger,
      run: params.run,
    }),
  ]);
}
