import type { Logger } from 'pino';
import type { Store } from '../../store/types.js';
import type { Clock } from '../../core/clock.js';
import type { RunnerOptions } from '../runtime/types.js';
import { scrubStoredHistory } from '../sessions/history-scrub.js';
import type { DiskHealth } from './disk-health.js';
import { probeStore } from './disk-probes.js';
import { runMaintenance } from './maintenance.js';
import { ModelWatch, type ModelStatus } from './model-watch.js';

/**
 * The gateway's background loops while it runs: maintenance (pruning, checkpoints, the media cache), the disk health
 * probes, the model endpoint watch, the model's context length and scrubbing stored history of newly known secrets.
 * One signal ends them all; `settled` waits for each.
 */
export class GatewayLoops {
  private readonly controller = new AbortController();
  private maintenanceRun: Promise<void> = Promise.resolve();
  private historyScrubRun: Promise<void> = Promise.resolve();
  private modelWatch: ModelWatch | undefined;
  private modelWatchRun: Promise<void> = Promise.resolve();
  private diskRun: Promise<void> = Promise.resolve();

  constructor(private readonly params: { store: Store; clock: Clock; logger: Logger; disk: DiskHealth; options: () => RunnerOptions }) {}

  /** Aborted when the gateway stops: every loop, and whatever else runs as long as the gateway (the scheduler, the sender gate). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Starts every loop once `after` resolves (and the gateway has not stopped by then): at start-up the runner lets
   * the adapters connect first, since the model endpoint's first probe, the history scrub and maintenance otherwise
   * take the CPU they connect with (bench/README, issue 27's fourth session).
   */
  startAfter(params: { after: Promise<void> }): void {
    const signal = this.signal;
    void params.after.then(
      () => {
        if (!signal.aborted) this.start();
      },
      () => undefined,
    );
  }

  /** Starts every loop. */
  start(): void {
    const { store, clock, logger, disk } = this.params;
    const options = this.params.options();
    const signal = this.signal;
    this.maintenanceRun = runMaintenance({ store, clock, logger, signal, ...(options.cacheDir !== undefined ? { cacheDir: options.cacheDir } : {}) });
    disk.setProbe({ part: 'store', probe: () => probeStore({ store, clock }) });
    this.diskRun = disk.run({ signal });
    const probe = options.modelProbe;
    if (probe) {
      const watch = new ModelWatch({ probe: () => this.params.options().modelProbe ?? probe, label: () => this.params.options().modelLabel, clock, logger });
      this.modelWatch = watch;
      this.modelWatchRun = watch.run({ signal });
    }
    this.resolveContextLength();
    this.scrubHistory();
  }

  /** Settings changed (a reload): the context length is asked again and history scrubbed of the secrets now known. */
  reconfigured(): void {
    this.resolveContextLength();
    this.scrubHistory();
  }

  /** The model endpoint's state for /healthz (absent: no watch configured). */
  modelStatus(): ModelStatus | undefined {
    return this.modelWatch?.status();
  }

  /** Ends every loop (they finish in the background; `settled` waits for them). */
  abort(): void {
    this.controller.abort();
  }

  /** Resolves when every loop has ended (each one's failure already logged by it). */
  async settled(): Promise<void> {
    await Promise.allSettled([this.maintenanceRun, this.historyScrubRun, this.modelWatchRun, this.diskRun]);
  }

  /** Asks the endpoint for the model's context length in the background (never blocks a turn; never rejects). */
  private resolveContextLength(): void {
    void this.params.options().modelContext?.resolve({ signal: this.signal });
  }

  /** Queues a scrub of stored history with the secrets now known (a no-op when they are the ones last applied). */
  private scrubHistory(): void {
    const { secretList, scrub } = this.params.options();
    if (secretList === undefined) return;
    const signal = this.signal;
    this.historyScrubRun = this.historyScrubRun.then(async () => {
      if (signal.aborted) return;
      await scrubStoredHistory({ store: this.params.store, secrets: secretList(), scrub, logger: this.params.logger, signal });
    });
  }
}
