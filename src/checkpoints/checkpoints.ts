import { createHash } from 'node:crypto';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { CheckpointCapability } from '../tools/capabilities.js';
import { nestedRoots, snapshotRootOf } from './roots.js';
import { CheckpointError, ROOT_FILE, ShadowRepo, type Checkpoint } from './shadow-repo.js';

/** Limits on the checkpoints kept (config `checkpoints`). */
export interface CheckpointSettings {
  readonly maxCount: number;
  readonly maxAgeMs: number;
  /** Most bytes the checkpoint repositories may take; past it the oldest go (the newest of each always stays). */
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
 * shadow git repositories of the profile (never the workspace's own .git), listed, shown and restored by /rollback.
 * A project inside the workspace with a git repository of its own (a clone) has a shadow repository of its own: git
 * would record such a folder only as a link, so a change there snapshots the project folder instead.
 */
export class Checkpoints {
  private readonly dir: string;
  private readonly workspace: string;
  private readonly settings: CheckpointSettings;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly repos = new Map<string, ShadowRepo>();
  /** Snapshots and restores one at a time: two turns' writes never race inside git. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(params: { dir: string; workspace: string; settings: CheckpointSettings; clock: Clock; logger: Logger }) {
    this.dir = params.dir;
    this.workspace = path.resolve(params.workspace);
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

  /** The shadow repository of a folder (the workspace's is workspace.git; a project's is named by a hash of its path). */
  private repoFor(root: string): ShadowRepo {
    let repo = this.repos.get(root);
    if (repo === undefined) {
      const name = root === this.workspace ? 'workspace' : createHash('sha256').update(root).digest('hex').slice(0, 12);
      repo = new ShadowRepo({ dir: path.join(this.dir, `${name}.git`), workspace: root });
      this.repos.set(root, repo);
    }
    return repo;
  }

  /** Every shadow repository of this workspace: those on disk (named in their root file) and those made since. */
  private async allRepos(): Promise<ShadowRepo[]> {
    for (const entry of await readdir(this.dir, { withFileTypes: true }).catch(() => [])) {
      if (!entry.isDirectory() || !entry.name.endsWith('.git')) continue;
      const root = await readFile(path.join(this.dir, entry.name, ROOT_FILE), 'utf8').catch(() => undefined);
      if (root !== undefined && root.trim() !== '') this.repoFor(root.trim());
    }
    return [...this.repos.values()];
  }

  /**
   * A capability for one turn: a directory it already snapshotted is not snapshotted again, but a write there waits
   * for that snapshot to finish (two writes of one round run at once; the second must not land in the first's
   * snapshot). A command (`path` the workspace) snapshots the workspace and every project in it.
   */
  forTurn(): CheckpointCapability {
    const taken = new Map<string, Promise<void>>();
    const once = (key: string, take: () => Promise<void>): Promise<void> => {
      let snapshot = taken.get(key);
      if (snapshot === undefined) {
        snapshot = take();
        taken.set(key, snapshot);
      }
      return snapshot;
    };
    return {
      before: async ({ path: target, reason }) => {
        const abs = path.resolve(this.workspace, target);
        if (abs === this.workspace) {
          const roots = [this.workspace, ...(await nestedRoots({ workspace: this.workspace, depth: 3 }))];
          await Promise.all(roots.map((root) => once(`root:${root}`, () => this.take({ reason, root }))));
          return;
        }
        const root = await snapshotRootOf({ workspace: this.workspace, target: abs });
        await once(`dir:${path.dirname(abs)}`, () => this.take({ reason, root }));
      },
    };
  }

  /** Takes a checkpoint of `root` (default: the workspace), then prunes; a failure is logged, never thrown. */
  async take(params: { reason: string; root?: string }): Promise<void> {
    const root = params.root ?? this.workspace;
    try {
      await this.serial(async () => {
        if ((await stat(root).catch(() => undefined)) === undefined) return;
        const repo = this.repoFor(root);
        const commit = await repo.snapshot({ reason: params.reason, now: this.clock.now() });
        if (commit !== undefined) this.logger.debug({ commit: commit.slice(0, 8), reason: params.reason, root }, 'checkpoint taken');
        await this.prune({ repo });
      });
    } catch (error) {
      this.logger.warn({ err: error, reason: params.reason }, 'a checkpoint could not be taken; the change goes on without one');
    }
  }

  /** Drops a repository's checkpoints past the count and the age, then its oldest while all of them are over the size. */
  private async prune(params: { repo: ShadowRepo }): Promise<void> {
    const { repo } = params;
    const { maxCount, maxAgeMs, maxBytes } = this.settings;
    await repo.prune({ keep: maxCount, before: this.clock.now() - maxAgeMs });
    for (let keep = (await repo.list()).length - 1; keep >= 1 && (await sizeOf(this.dir)) > maxBytes; keep--) {
      await repo.prune({ keep, before: 0 });
    }
  }

  /** Every repository's checkpoints, newest first, numbered across them. */
  private async merged(): Promise<Checkpoint[]> {
    const lists = await Promise.all((await this.allRepos()).map((repo) => repo.list()));
    return lists
      .flat()
      .sort((a, b) => b.at - a.at)
      .map((checkpoint, i) => ({ ...checkpoint, number: i + 1 }));
  }

  /** The checkpoints, newest first. */
  list(): Promise<Checkpoint[]> {
    return this.serial(() => this.merged());
  }

  /** The change from checkpoint `number` to its folder now: a stat summary, then the patch. */
  diff(params: { number: number }): Promise<string> {
    return this.serial(async () => {
      const checkpoint = await this.find(params.number);
      const repo = this.repoFor(checkpoint.root);
      const now = await repo.currentTree();
      return repo.git({ args: ['diff', '--no-color', '--stat', '--patch', '--no-renames', checkpoint.commit, now] });
    });
  }

  /**
   * Puts checkpoint `number`'s folder back as it had it: its files restored, files made since removed. The state
   * before is kept as a checkpoint of its own first (so a rollback can be rolled back). Returns what changed.
   */
  restore(params: { number: number }): Promise<{ checkpoint: Checkpoint; restored: number; removed: number }> {
    return this.serial(async () => {
      const checkpoint = await this.find(params.number);
      const repo = this.repoFor(checkpoint.root);
      await repo.snapshot({ reason: `before /rollback ${params.number}`, now: this.clock.now() });
      const now = await repo.currentTree();
      const changed = (await repo.git({ args: ['diff', '--name-status', '--no-renames', '-z', checkpoint.commit, now] })).split('\0').filter((part) => part !== '');
      const added: string[] = [];
      let restored = 0;
      for (let i = 0; i + 1 < changed.length; i += 2) {
        if (changed[i] === 'A') added.push(changed[i + 1] ?? '');
        else restored += 1;
      }
      if (restored > 0) await repo.git({ args: ['checkout', checkpoint.commit, '--', '.'] });
      for (const file of added) await rm(path.join(checkpoint.root, file), { force: true });
      return { checkpoint, restored, removed: added.length };
    });
  }

  /** The folder a checkpoint snapshotted, as the workspace sees it ("" for the workspace itself). */
  relativeRoot(params: { checkpoint: Checkpoint }): string {
    return path.relative(this.workspace, params.checkpoint.root);
  }

  /** Checkpoint `number` (1 = newest); throws CheckpointError when there is none. */
  private async find(number: number): Promise<Checkpoint> {
    const all = await this.merged();
    const found = all.find((checkpoint) => checkpoint.number === number);
    if (found === undefined) throw new CheckpointError(all.length === 0 ? 'there are no checkpoints yet' : `there is no checkpoint ${number} (1 to ${all.length})`);
    return found;
  }
}
