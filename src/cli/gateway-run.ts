import type { AdapterEntry } from '../gateway/runner.js';
import { buildGateway } from '../gateway/bootstrap.js';
import { adaptersFromConfig } from '../gateway/platforms.js';
import { removeGatewayState, writeGatewayState } from '../home/gateway-state.js';
import { acquirePidLock } from '../home/pid-lock.js';
import { systemClock } from '../util/clock.js';
import { loadProfile, openLog, type GlobalOptions } from './context.js';
import { println, type CliIO } from './output.js';

/** Resolves on the first SIGTERM/SIGINT; a second one exits at once. */
function firstSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const handler = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
      process.once('SIGINT', () => process.exit(130));
      process.once('SIGTERM', () => process.exit(143));
      resolve(signal);
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
  });
}

/**
 * `hermes gateway run`: runs the profile's gateway in the foreground until SIGTERM/SIGINT, then drains.
 * `extraAdapters` lets a host program (or a test) add adapters that are not in config.
 */
export async function gatewayRun(params: { options: GlobalOptions; io: CliIO; extraAdapters?: readonly AdapterEntry[] }): Promise<number> {
  const { io } = params;
  const loaded = await loadProfile(params);
  const { profile, config } = loaded;
  const log = openLog({ loaded, tty: io.isTTY });
  const lock = acquirePidLock({ profile });
  try {
    const adapters = [...adaptersFromConfig({ config, profile, clock: systemClock, logger: log.logger }), ...(params.extraAdapters ?? [])];
    if (adapters.length === 0) {
      log.logger.warn('no platform is enabled; set platforms.<name>.enabled: true in config.yaml, or use `hermes chat`');
    }
    const { runner } = buildGateway({
      profile,
      config,
      clock: systemClock,
      logger: log.logger,
      adapters,
      withHttp: true,
      scrub: (text) => loaded.redactor.scrub(text),
    });
    const stopping = firstSignal();
    try {
      await runner.start();
    } catch (error) {
      await runner.stop(); // closes the store and whatever did start
      throw error;
    }
    writeGatewayState({ profile, state: { pid: process.pid, startedAt: Date.now(), http: runner.httpAddress } });
    const where = runner.httpAddress ? `; health at http://${runner.httpAddress.host}:${runner.httpAddress.port}/healthz` : '';
    println({
      stream: io.stdout,
      text: `hermes gateway running for profile "${profile.name}" (${adapters.map((a) => a.adapter.name).join(', ') || 'no platforms'})${where}`,
    });
    const signal = await stopping;
    println({ stream: io.stdout, text: `${signal}: draining (up to ${Math.round(config.gateway.drain_timeout / 1000)}s)...` });
    await runner.stop();
    println({ stream: io.stdout, text: 'stopped' });
    return 0;
  } finally {
    removeGatewayState({ profile });
    lock.release();
    await log.close();
  }
}
