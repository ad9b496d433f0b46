import type { AdapterEntry } from '../core/platform.js';
import { buildGateway } from '../app/bootstrap.js';
import { adaptersFromConfig } from '../app/platforms.js';
import { describeOutcome, GatewayReloader, type ReloadOutcome } from '../app/reload.js';
import { DiskHealth } from '../gateway/ops/disk-health.js';
import { removeGatewayState, saveGatewayState, type GatewayStateFile } from '../home/gateway-state.js';
import { assertNoClashes } from '../app/clashes.js';
import { acquirePidLock, type PidLock } from '../home/pid-lock.js';
import type { Profile } from '../home/profile.js';
import { systemClock } from '../core/clock.js';
import { loadProfile, mcpServersRereader, openLog, type GlobalOptions, type LoadedProfile } from './context.js';
import { firstStopSignal, hangups } from './gateway-signals.js';
import { println, type CliIO } from './output.js';
import { tolerateBrokenOutput } from '../log/broken-output.js';
import type { LoggerHandle } from '../log/logger.js';
import { outliveBrokenStdout } from './broken-pipe.js';
import { UnaskedLoops } from '../gateway/inject/unasked-loops.js';

/**
 * `hermes gateway run`: runs the profile's gateway in the foreground until SIGTERM/SIGINT, then drains;
 * SIGHUP reloads config.yaml and .env. `extraAdapters` lets a host program (or a test) add adapters that are
 * not in config.
 */
export async function gatewayRun(params: { options: GlobalOptions; io: CliIO; extraAdapters?: readonly AdapterEntry[] }): Promise<number> {
  const hup = hangups();
  try {
    return await runGateway({ ...params, hup });
  } finally {
    hup.dispose();
  }
}

/** The SIGHUP listener `gatewayRun` installs: a hangup before `ready` is handled once reloads are taken. */
type Hangups = ReturnType<typeof hangups>;

async function runGateway(params: { options: GlobalOptions; io: CliIO; extraAdapters?: readonly AdapterEntry[]; hup: Hangups }): Promise<number> {
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
    return await serveGateway({ io, loaded, disk, log, lock, hup: params.hup, extraAdapters: params.extraAdapters ?? [] });
  } finally {
    removeGatewayState({ profile });
    lock.release();
    await log.close();
  }
}

/** What the gateway runs with once its profile is loaded, its log open and its pid lock held. */
interface ServeParams {
  readonly io: CliIO;
  readonly loaded: LoadedProfile;
  readonly disk: DiskHealth;
  readonly log: LoggerHandle;
  readonly lock: PidLock;
  readonly hup: Hangups;
  /** Adapters beyond the ones config enables (a host program's, or a test's). */
  readonly extraAdapters: readonly AdapterEntry[];
}

/** Builds and starts the gateway, serves until the first stop signal, then drains; resolves to the exit code. */
async function serveGateway(params: ServeParams): Promise<number> {
  const { io, loaded, log } = params;
  const { profile, config } = loaded;
  const adapters = [...(await adaptersFromConfig({ config, profile, clock: systemClock, logger: log.logger })), ...params.extraAdapters];
  if (adapters.length === 0) {
    log.logger.warn('no platform is enabled; set platforms.<name>.enabled: true in config.yaml, or use `hermes chat`');
  }
  const { gateway, cron, stopping } = await startGateway({ ...params, adapters });
  const { runner } = gateway;
  const state = { pid: process.pid, startedAt: Date.now(), http: runner.httpAddress };
  const save = stateSaver({ profile, disk: params.disk, lock: params.lock, state });
  const reloads = watchReloads({ ...params, gateway, cronPoke: cron.poke, state, save });
  const where = runner.httpAddress ? `; health at http://${runner.httpAddress.host}:${runner.httpAddress.port}/healthz` : '';
  println({
    stream: io.stdout,
    text: `hermes gateway running for profile "${profile.name}" (${adapters.map((a) => a.adapter.name).join(', ') || 'no platforms'})${where}`,
  });
  const signal = await stopping;
  await reloads.stop();
  println({ stream: io.stdout, text: `${signal}: draining (up to ${Math.round(config.gateway.drain_timeout / 1000)}s)...` });
  await runner.stop();
  println({ stream: io.stdout, text: 'stopped' });
  return 0;
}

/** A started gateway, the cron wake-up its `cronjob` tool calls, and the first stop signal to come. */
interface StartedGateway {
  readonly gateway: ReturnType<typeof buildGateway>;
  readonly cron: { readonly poke: () => void };
  readonly stopping: Promise<NodeJS.Signals>;
}

/** Builds the gateway over `adapters` and starts it (stopping whatever did start when that fails). */
async function startGateway(params: ServeParams & { adapters: readonly AdapterEntry[] }): Promise<StartedGateway> {
  const { loaded, log } = params;
  // The cronjob tool wakes the scheduler after a change; the scheduler belongs to the runner built here.
  let pokeScheduler = (): void => undefined;
  const cron = { poke: (): void => pokeScheduler() };
  const gateway = buildGateway({
    profile: loaded.profile,
    config: loaded.config,
    cron,
    clock: systemClock,
    logger: log.logger,
    adapters: params.adapters,
    withHttp: true,
    scrub: (text) => loaded.redactor.scrub(text),
    secrets: loaded.redactor,
    disk: params.disk,
    readMcpServers: mcpServersRereader({ loaded, env: params.io.env }),
  });
  const { runner } = gateway;
  pokeScheduler = () => runner.scheduler.poke();
  const stopping = firstStopSignal();
  try {
    await runner.start();
  } catch (error) {
    await runner.stop(); // closes the store and whatever did start
    throw error;
  }
  return { gateway, cron, stopping };
}

/**
 * Saves `state` as gateway.json (and gateway.pid's content) and returns the function that saves the next one. On a full
 * disk they wait: the disk watch writes the latest state once space returns.
 */
function stateSaver(params: { profile: Profile; disk: DiskHealth; lock: PidLock; state: GatewayStateFile }): (next: GatewayStateFile) => boolean {
  const { profile, disk, lock } = params;
  let current: GatewayStateFile = params.state;
  const save = (next: GatewayStateFile): boolean => {
    current = next;
    return saveGatewayState({ profile, state: next, disk, lock });
  };
  disk.setProbe({ part: 'state', probe: () => save(current) });
  save(params.state);
  return save;
}

/** What watchReloads needs besides the serve params: the started gateway and how its state is saved. */
interface ReloadWatchParams extends ServeParams {
  readonly gateway: ReturnType<typeof buildGateway>;
  /** The scheduler's wake-up, as given to buildGateway (the reloaded `cronjob` tool keeps it). */
  readonly cronPoke: () => void;
  /** The state saved at start; each reload's outcome is saved on top of it. */
  readonly state: GatewayStateFile;
  readonly save: (next: GatewayStateFile) => boolean;
}

/**
 * Starts the heartbeat and the checks (turns in the home channels) and takes SIGHUP as a reload of config.yaml and .env,
 * each outcome saved in gateway.json and printed; a reload restarts the loops whose sections changed. `stop` ends both
 * (a reload in progress finishes swapping adapters first).
 */
function watchReloads(params: ReloadWatchParams): { stop: () => Promise<void> } {
  const { io, loaded, log, state, save } = params;
  const { profile, config } = loaded;
  const { runner, http, registry, store, mcp } = params.gateway;
  const unasked = new UnaskedLoops({
    profileDir: profile.dir,
    profileName: () => profile.name,
    store,
    inject: (p) => runner.inject(p),
    clock: systemClock,
    logger: log.logger.child({ component: 'unasked' }),
  });
  const reloader = new GatewayReloader({ profile, env: io.env, config, runner, http, registry, store, redactor: loaded.redactor, logger: log.logger, clock: systemClock, cronPoke: params.cronPoke, unasked, mcp });
  void unasked.apply({ config }); // before any SIGHUP is taken: a reload's apply queues behind this one
  let running = true;
  const recordReload = (outcome: ReloadOutcome): void => {
    if (!running) return;
    const summary = outcome.ok ? describeOutcome({ outcome }) : outcome.error;
    save({ ...state, lastReload: { at: Date.now(), ok: outcome.ok, summary } });
    println({ stream: io.stdout, text: outcome.ok ? `config reloaded: ${summary}` : `config reload failed (old config kept): ${summary}` });
  };
  params.hup.ready({ onHangup: () => void (running ? reloader.request().then(recordReload) : undefined) });
  return {
    stop: async (): Promise<void> => {
      running = false;
      await unasked.stop();
      await reloader.close(); // a reload in progress finishes swapping adapters before the drain starts
    },
  };
}
