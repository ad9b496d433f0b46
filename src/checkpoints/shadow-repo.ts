import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ProgramError, runProgram } from '../util/run-program.js';

/** One checkpoint: a snapshot of the workspace taken before a change, newest first in listings. */
export interface Checkpoint {
  /** 1 is the newest. */
  readonly number: number;
  readonly commit: string;
  /** When it was taken (ms). */
  readonly at: number;
  /** What was about to change ("write_file notes.md"). */
  readonly reason: string;
  /** The folder snapshotted: the workspace, or a project inside it with a git repository of its own. */
  readonly root: string;
}

/** A git step that failed, with git's own last line. */
export class CheckpointError extends Error {
  override readonly name = 'CheckpointError';
}

const REFS = 'refs/checkpoints/';

/** The file in a shadow repository naming the folder it snapshots. */
export const ROOT_FILE = 'hermes-root';

/**
 * The workspace's checkpoints, kept in a git repository of the profile's own (`git` from Debian). Git runs with that
 * repository as GIT_DIR, the workspace as its work tree and an index of its own, with hooks, signing and the
 * caller's GIT_* variables off: the workspace's own .git (and any repository inside it) is never read or written, and
 * its .gitignore keeps ignored files (node_modules, builds) out of the snapshots. Each checkpoint is a parentless
 * commit under refs/checkpoints/, so pruning one and collecting garbage frees its files.
 */
export class ShadowRepo {
  private readonly gitDir: string;
  /** The folder snapshotted (git's work tree). */
  readonly workspace: string;
  private ready: Promise<void> | undefined;

  constructor(params: { dir: string; workspace: string }) {
    this.gitDir = params.dir;
    this.workspace = params.workspace;
  }

  /** Runs git on the shadow repository; resolves with its standard output. */
  async git(params: { args: readonly string[]; index?: string; signal?: AbortSignal; env?: Readonly<Record<string, string>>; bare?: boolean }): Promise<string> {
    const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('GIT_')));
    Object.assign(env, {
      ...(params.bare === true ? {} : { GIT_DIR: this.gitDir, GIT_WORK_TREE: this.workspace, GIT_INDEX_FILE: params.index ?? path.join(this.gitDir, 'hermes-index') }),
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      HOME: this.gitDir,
      ...params.env,
    });
    const args = ['-c', 'core.hooksPath=/dev/null', '-c', 'commit.gpgsign=false', '-c', 'user.name=hermes', '-c', 'user.email=hermes@localhost', '-c', 'core.autocrlf=false', ...params.args];
    try {
      return await runProgram({ file: 'git', args, cwd: this.workspace, env, maxBuffer: 16 * 1024 * 1024, signal: params.signal });
    } catch (error) {
      throw error instanceof ProgramError ? new CheckpointError(`git ${params.args[0] ?? ''} failed: ${error.detail}`) : error;
    }
  }

  /** Creates the repository the first time. */
  private init(): Promise<void> {
    this.ready ??= (async () => {
      const exists = await stat(path.join(this.gitDir, 'HEAD')).catch(() => undefined);
      if (exists !== undefined) return;
      await mkdir(this.gitDir, { recursive: true });
      await this.git({ args: ['init', '--quiet', '--bare', this.gitDir], bare: true });
      // Which folder it snapshots, for listing the repositories of one workspace.
      await writeFile(path.join(this.gitDir, ROOT_FILE), this.workspace);
    })();
    return this.ready;
  }

  /** The workspace as a tree object now (through a scratch index, so the listing index is left alone). */
  async currentTree(params: { signal?: AbortSignal } = {}): Promise<string> {
    await this.init();
    const index = path.join(this.gitDir, `scratch-index-${process.pid}`);
    try {
      await this.git({ args: ['add', '--all', '--', '.'], index, ...params });
      return (await this.git({ args: ['write-tree'], index, ...params })).trim();
    } finally {
      await rm(index, { force: true });
    }
  }

  /** The checkpoints, newest first. */
  async list(): Promise<Checkpoint[]> {
    await this.init();
    // Ref names start with the time taken (ms, zero-padded): newest first is by name, and the time is read from it.
    const out = await this.git({ args: ['for-each-ref', '--sort=-refname', '--format=%(objectname) %(refname:lstrip=2) %(subject)', REFS] });
    return out
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line, i) => {
        const [commit = '', name = '', ...words] = line.split(' ');
        return { number: i + 1, commit, at: Number(name.split('-')[0]), reason: words.join(' '), root: this.workspace };
      });
  }

  /** Records the workspace as a checkpoint; undefined when nothing changed since the newest one. */
  async snapshot(params: { reason: string; now: number; signal?: AbortSignal }): Promise<string | undefined> {
    const tree = await this.currentTree(params.signal ? { signal: params.signal } : {});
    const newest = (await this.list())[0];
    if (newest !== undefined && (await this.git({ args: ['rev-parse', `${newest.commit}^{tree}`] })).trim() === tree) return undefined;
    const date = `${Math.floor(params.now / 1000)} +0000`;
    const commit = (await this.git({ args: ['commit-tree', tree, '-m', params.reason.replace(/\s+/g, ' ').slice(0, 200)], env: { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } })).trim();
    // Ref names sort by time, then by a sequence within the same millisecond.
    await this.git({ args: ['update-ref', `${REFS}${String(params.now).padStart(15, '0')}-${commit.slice(0, 8)}`, commit] });
    return commit;
  }

  /** Removes the checkpoints past `keep` (newest kept) or older than `before` (ms), and the files only they held. */
  async prune(params: { keep: number; before: number }): Promise<number> {
    const all = await this.list();
    const gone = all.filter((checkpoint) => checkpoint.number > params.keep || checkpoint.at < params.before);
    if (gone.length === 0) return 0;
    const refs = await this.git({ args: ['for-each-ref', '--format=%(refname) %(objectname)', REFS] });
    const doomed = new Set(gone.map((checkpoint) => checkpoint.commit));
    for (const line of refs.split('\n')) {
      const [ref, commit] = line.split(' ');
      if (ref !== undefined && commit !== undefined && doomed.has(commit)) await this.git({ args: ['update-ref', '-d', ref] });
    }
    await this.git({ args: ['gc', '--quiet', '--prune=now'] });
    return gone.length;
  }
}
