import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import type { GatewayConfig } from '../../config/schema.js';
import type { CommandRunner } from '../../jobs/checks.js';
import type { FiredChecks } from '../../jobs/checks-fired.js';
import { runUnasked } from '../../jobs/unasked.js';
import type { Store } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import type { InjectParams, InjectResult } from '../../jobs/ports.js';
import { unaskedInject } from './unasked-session.js';

/** What `UnaskedLoops.apply` did. */
export type UnaskedApplied = 'started' | 'restarted' | 'stopped' | 'unchanged';

/** The settings the heartbeat and the checks run with (runUnasked reads these): a change to any restarts them. */
function unaskedSettings(params: { config: GatewayConfig }): unknown {
  const { config } = params;
  return {
    heartbeat: config.heartbeat,
    checks: config.checks,
    timezone: config.timezone,
    workspace: config.tools.workspace,
    limits: [config.tools.terminal.timeout, config.tools.terminal.max_output_bytes, config.agent.context_file_max_chars],
  };
}

/** Whether the config asks for anything: the heartbeat enabled, or at least one check. */
function anythingToRun(params: { config: GatewayConfig }): boolean {
  return params.config.heartbeat.enabled || params.config.checks.length > 0;
}

/** What the loops need: where the profile's files are, the store (home channels), and the runner's inject. */
export interface UnaskedLoopsParams {
  readonly profileDir: string;
  readonly profileName: () => string;
  readonly store: Store;
  /** runner.inject (of the runner running now). */
  readonly inject: (p: InjectParams) => InjectResult;
  readonly clock: Clock;
  readonly logger: Logger;
  /** How check commands run (default: as the terminal tool runs them). */
  readonly run?: CommandRunner;
  /** Which once-checks fired (default: the profile's checks-fired.json). */
  readonly fired?: FiredChecks;
}

/** One running generation of the loops. */
interface Generation {
  readonly settings: unknown;
  readonly stop: AbortController;
  readonly done: Promise<void>;
}

/**
 * The daemon's heartbeat and checks (runUnasked, turns into the home channels through runner.inject), following the
 * config: `apply` with the startup config starts them; with a reloaded one it restarts them when the `heartbeat` or
 * `checks` section (or what they run with: timezone, workspace, terminal limits) changed, and stops them when
 * nothing is left to run. `hermes gateway run` and the tests build it the same way.
 */
export class UnaskedLoops {
  private readonly params: UnaskedLoopsParams;
  private current: Generation | undefined;
  /** Applies one after another (a reload during the startup apply waits for it). */
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor(params: UnaskedLoopsParams) {
    this.params = params;
  }

  /** Starts, restarts or stops the loops for `config`; resolves once the old loops (if any) have stopped. */
  apply(params: { config: GatewayConfig }): Promise<UnaskedApplied> {
    const next = this.queue.then(() => this.applyNow(params));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Stops the loops for good (a later apply does nothing); resolves once they have stopped. */
  async stop(): Promise<void> {
    this.closed = true;
    await this.queue;
    await this.halt();
  }

  private async applyNow(params: { config: GatewayConfig }): Promise<UnaskedApplied> {
    if (this.closed) return 'unchanged';
    const settings = unaskedSettings(params);
    const wanted = anythingToRun(params);
    const running = this.current;
    if (running !== undefined && isDeepStrictEqual(running.settings, settings)) return 'unchanged';
    if (running === undefined && !wanted) return 'unchanged';
    await this.halt();
    if (!wanted) {
      this.params.logger.info('heartbeat and checks stopped: the config has none now');
      return 'stopped';
    }
    this.current = this.begin({ config: params.config, settings });
    if (running === undefined) return 'started';
    this.params.logger.info('heartbeat and checks restarted with the new config');
    return 'restarted';
  }

  /** Aborts the running generation and waits for it. */
  private async halt(): Promise<void> {
    const running = this.current;
    if (running === undefined) return;
    this.current = undefined;
    running.stop.abort();
    await running.done;
  }

  private begin(params: { config: GatewayConfig; settings: unknown }): Generation {
    const { profileDir, profileName, store, clock, logger } = this.params;
    const stop = new AbortController();
    const done = runUnasked({
      config: params.config,
      profileDir,
      inject: unaskedInject({ store, profileName, inject: this.params.inject }),
      clock,
      signal: stop.signal,
      logger,
      ...(this.params.run ? { run: this.params.run } : {}),
      ...(this.params.fired ? { fired: this.params.fired } : {}),
    }).catch((error: unknown) => logger.error({ err: error }, 'the heartbeat and checks stopped on an error; scheduled jobs go on'));
    return { settings: params.settings, stop, done };
  }
}
