import type { AdapterEntry } from '../core/platform.js';
import { buildGateway } from '../app/bootstrap.js';
import { adaptersFromConfig } from '../app/platforms.js';
import { describeOutcome, GatewayReloader, type ReloadOutcome } from '../app/reload.js';
import { DiskHealth } from '../gateway/ops/disk-health.js';
import { removeGatewayState, saveGatewayState, type GatewayStateFile } from '../home/gateway-state.js';
import { assertNoClashes } from '../app/clashes.js';
import { acquirePidLock } from '../home/pid-lock.js';
import { systemClock } from '../core/clock.js';
import { loadProfile, openLog, type GlobalOptions } from './context.js';
import { firstStopSignal, hangups } from './gateway-signals.js';
import { println, type CliIO } from './output.js';
import { tolerateBrokenOutput } from '../log/broken-output.js';
import { outliveBrokenStdout } from './broken-pipe.js';
import { UnaskedLoops } from '../gateway/inject/unasked-loops.js';

/**
 * `hermes gateway run`: runs the profile's gateway in the foreground until SIGTERM/SIGINT, then drains;
 * SIGHUP reloads config.yaml and .env. `extraAdapters` lets a host program (or a test) add adapters that are
 * not in config.
 */
export async function gatewayRun(params: { options: GlobalOptions; io: CliIO; extraAdapters?: readonly AdapterEntry[] }): Promise<number> {
  const { io } = params;
  const hup = hangups();
  try {
    return await runGateway({ ...params, hup });
  } finally {
    hup.dispose();
  }
}

async function runGateway(params: { options: GlobalOptions; io: CliIO; extraAdapters?: readonly AdapterEntry[]; hup: ReturnType<typeof hangups> }): Promise<number> {
  const { io } = params;
  // A daemon outlives whoever reads its output: a closed pipe (EPIPE) must not end it.
  outliveBrokenStdout();
  tolerateBrokenOutput({ stream: io.stdout });
  tolerateBrokenOutput({ stream: io.stderr });
  const loaded = await loadProfile(params);
  const { profile, config } = loaded;
  // One view of the disk for the log file, the store and gateway.json: /healthz says "degraded: disk full" while any fails.
  const disk = new DiskHealth({ clock: systemClock });
  const log = openLog({ loaded, tty: io.isTTY, disk });
  disk.setProbe({ part: 'log', probe: () => log.retryFile() });
  await assertNoClashes({ profile, config, env: io.env, logger: log.logger }); // another profile on the same bot or port: exit 78
  const lock = acquirePidLock({ profile });
  try {
    const adapters = [...(await adaptersFromConfig({ config, profile, clock: systemClock, logger: log.logger })), ...(params.extraAdapters ?? [])];
    if (adapters.length === 0) {
      log.logger.warn('no platform is enabled; set platforms.<name>.enabled: true in config.yaml, or use `hermes chat`');
    }
    // The cronjob tool wakes the scheduler after a change; the scheduler belongs to the runner built here.
    let pokeScheduler = (): void => undefined;
    const cron = { poke: (): void => pokeScheduler() };
    const { runner, http, registry, store } = buildGateway({
      profile,
      config,
      cron,
      clock: systemClock,
      logger: log.logger,
      adapters,
      withHttp: true,
      scrub: (text) => loaded.redactor.scrub(text),
      secrets: loaded.redactor,
      disk,
    });
    pokeScheduler = () => runner.scheduler.poke();
    const stopping = firstStopSignal();
    try {
      await runner.start();
    } catch (error) {
      await runner.stop(); // closes the store and whatever did start
      throw error;
    }
    const state = { pid: process.pid, startedAt: Date.now(), http: runner.httpAddress };
    let current: GatewayStateFile = state;
    // On a full disk gateway.json (and gateway.pid's content) wait: the disk watch writes them once space returns.
    const save = (next: GatewayStateFile): boolean => {
      current = next;
      return saveGatewayState({ profile, state: next, disk, lock });
    };
    disk.setProbe({ part: 'state', probe: () => save(current) });
    save(state);
    // The heartbeat and the checks: turns in the home channels; a reload restarts them when their sections changed.
    const unasked = new UnaskedLoops({
      profileDir: profile.dir,
      profileName: () => profile.name,
      store,
      inject: (p) => runner.inject(p),
      clock: systemClock,
      logger: log.logger.child({ component: 'unasked' }),
    });
    const reloader = new GatewayReloader({ profile, env: io.env, config, runner, http, registry, store, redactor: loaded.redactor, logger: log.logger, clock: systemClock, cronPoke: cron.poke, unasked });
    void unasked.apply({ config }); // before any SIGHUP is taken: a reload's apply queues behind this one
    let running = true;
    const recordReload = (outcome: ReloadOutcome): void => {
      if (!running) return;
      const summary = outcome.ok ? describeOutcome({ outcome }) : outcome.error;
      save({ ...state, lastReload: { at: Date.now(), ok: outcome.ok, summary } });
      println({ stream: io.stdout, text: outcome.ok ? `config reloaded: ${summary}` : `config reload failed (old config kept): ${summary}` });
    };
    params.hup.ready({ onHangup: () => void (running ? reloader.request().then(recordReload) : undefined) });
    const where = runner.httpAddress ? `; health at http://${runner.httpAddress.host}:${runner.httpAddress.port}/healthz` : '';
    println({
      stream: io.stdout,
      text: `hermes gateway running for profile "${profile.name}" (${adapters.map((a) => a.adapter.name).join(', ') || 'no platforms'})${where}`,
    });
    const signal = await stopping;
    running = false;
    await unasked.stop();
    await reloader.close(); // a reload in progress finishes swapping adapters before the drain starts
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
