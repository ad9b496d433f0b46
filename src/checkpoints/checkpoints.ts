import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { CheckpointCapability } from '../tools/capabilities.js';
import { CheckpointError, ShadowRepo, type Checkpoint } from './shadow-repo.js';

/** Limits on the checkpoints kept (config `checkpoints`). */
export interface CheckpointSettings {
  readonly maxCount: number;
  readonly maxAgeMs: number;
  /** Most bytes the checkpoint repository may take; past it the oldest go (the newest always stays). */
  readonly maxBytes: number;
}

/** The bytes of the files under `dir`. */
async function sizeOf(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await sizeOf(full);
    else if (entry.isFile()) total += (await stat(full).catch(() => undefined))?.size ?? 0;
  }
  return total;
}

/**
 * The profile's workspace checkpoints (issue 30): a snapshot before write_file, patch or a destructive command, kept in
 * a shadow git repository of the profile (never the workspace's own .git), listed, shown and restored by /rollback.
 */
export class Checkpoints {
  private readonly repo: ShadowRepo;
  private readonly dir: string;
  private readonly workspace: string;
  private readonly settings: CheckpointSettings;
  private readonly clock: Clock;
  private readonly logger: Logger;
  /** Snapshots and restores one at a time: two turns' writes never race inside git. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(params: { dir: string; workspace: string; settings: CheckpointSettings; clock: Clock; logger: Logger }) {
    this.dir = params.dir;
    this.workspace = params.workspace;
    this.repo = new ShadowRepo({ dir: params.dir, workspace: params.workspace });
    this.settings = params.settings;
    this.clock = params.clock;
    this.logger = params.logger;
  }

  /** Runs `op` after the ones before it. */
  private serial<T>(op: () => Promise<T>): Promise<T> {
    const next = this.queue.then(op, op);
    this.queue = next.catch(() => undefined);
    return next;
  }

  /**
   * A capability for one turn: a directory it already snapshotted is not snapshotted again, but a write there waits
   * for that snapshot to finish (two writes of one round run at once; the second must not land in the first's snapshot).
   */
  forTurn(): CheckpointCapability {
    const taken = new Map<string, Promise<void>>();
    return {
      before: async ({ path: target, reason }) => {
        const dir = path.dirname(path.resolve(this.workspace, target));
        let snapshot = taken.get(dir);
        if (snapshot === undefined) {
          snapshot = this.take({ reason });
          taken.set(dir, snapshot);
        }
        await snapshot;
      },
    };
  }

  /** Takes a checkpoint now (then prunes to the limits); a failure is logged, never thrown: the change goes on. */
  async take(params: { reason: string }): Promise<void> {
    try {
      await this.serial(async () => {
        if ((await stat(this.workspace).catch(() => undefined)) === undefined) return;
        const commit = await this.repo.snapshot({ reason: params.reason, now: this.clock.now() });
        if (commit !== undefined) this.logger.debug({ commit: commit.slice(0, 8), reason: params.reason }, 'checkpoint taken');
        await this.prune();
      });
    } catch (error) {
      this.logger.warn({ err: error, reason: params.reason }, 'a checkpoint could not be taken; the change goes on without one');
    }
  }

  /** Drops checkpoints past the count, older than the age, and the oldest while the repository is over its size. */
  private async prune(): Promise<void> {
    const { maxCount, maxAgeMs, maxBytes } = this.settings;
    await this.repo.prune({ keep: maxCount, before: this.clock.now() - maxAgeMs });
    for (let keep = (await this.repo.list()).length - 1; keep >= 1 && (await sizeOf(this.dir)) > maxBytes; keep--) {
      await this.repo.prune({ keep, before: 0 });
    }
  }

  /** The checkpoints, newest first. */
  list(): Promise<Checkpoint[]> {
    return this.serial(() => this.repo.list());
  }

  /** The change from checkpoint `number` to the workspace now: a stat summary, then the patch. */
  diff(params: { number: number }): Promise<string> {
    return this.serial(async () => {
      const checkpoint = await this.find(params.number);
      const now = await this.repo.currentTree();
      return this.repo.git({ args: ['diff', '--no-color', '--stat', '--patch', '--no-renames', checkpoint.commit, now] });
    });
  }

  /**
   * Puts the workspace back as checkpoint `number` had it: its files restored, files made since removed. The state
   * before is kept as a checkpoint of its own first (so a rollback can be rolled back). Returns what changed.
   */
  restore(params: { number: number }): Promise<{ checkpoint: Checkpoint; restored: number; removed: number }> {
    return this.serial(async () => {
      const checkpoint = await this.find(params.number);
      await this.repo.snapshot({ reason: `before /rollback ${params.number}`, now: this.clock.now() });
      const now = await this.repo.currentTree();
      const changed = (await this.repo.git({ args: ['diff', '--name-status', '--no-renames', '-z', checkpoint.commit, now] })).split('\0').filter((part) => part !== '');
      const added: string[] = [];
      let restored = 0;
      for (let i = 0; i + 1 < changed.length; i += 2) {
        if (changed[i] === 'A') added.push(changed[i + 1] ?? '');
        else restored += 1;
      }
      if (restored > 0) await this.repo.git({ args: ['checkout', checkpoint.commit, '--', '.'] });
      for (const file of added) await rm(path.join(this.workspace, file), { force: true });
      return { checkpoint, restored, removed: added.length };
    });
  }

  /** Checkpoint `number` (1 = newest); throws CheckpointError when there is none. */
  private async find(number: number): Promise<Checkpoint> {
    const all = await this.repo.list();
    const found = all.find((checkpoint) => checkpoint.number === number);
    if (found === undefined) throw new CheckpointError(all.length === 0 ? 'there are no checkpoints yet' : `there is no checkpoint ${number} (1 to ${all.length})`);
    return found;
  }
}
