import path from 'node:path';
import type { BwrapSettings } from './spec.js';

/** One mount of the sandbox's view, applied in order (a deeper path is mounted after the one containing it). */
interface Mount {
  readonly op: 'tmpfs' | 'bind' | 'ro-bind';
  readonly path: string;
  /** Among mounts of the same depth, lower goes first (private /tmp, then the workspace, then hidden folders). */
  readonly rank: number;
}

/** Path depth: "/" is 0, "/tmp" 1, "/tmp/a" 2. */
function depth(p: string): number {
  return p.split('/').filter((part) => part !== '').length;
}

/**
 * The argv (after the bwrap binary) that runs `/bin/sh -c <script>` confined: the system read-only, the workspace
 * read-write at its own path (cwd there), each `hide` folder an empty read-only tmpfs (the workspace bound back when
 * it lies inside one), a private /tmp, its own /dev and /proc in new pid, ipc and uts namespaces, no network unless
 * `network`, killed with its parent. The environment is the spawner's (pass exactly the command's env to spawn:
 * bwrap's own /proc/1/environ inside the sandbox shows it). `readOnly` folders (an execute_code run's script folder)
 * are bound read-only at their own paths, after the private /tmp.
 */
export function bwrapArgs(params: { settings: BwrapSettings; workspace: string; script: string; readOnly?: readonly string[] }): string[] {
  const workspace = path.resolve(params.workspace);
  const mounts: Mount[] = [
    { op: 'tmpfs', path: '/tmp', rank: 0 },
    { op: 'bind', path: workspace, rank: 1 },
    ...(params.readOnly ?? []).map((dir): Mount => ({ op: 'ro-bind', path: path.resolve(dir), rank: 1 })),
    ...params.settings.hide.map((dir): Mount => ({ op: 'tmpfs', path: path.resolve(dir), rank: 2 })),
  ];
  // Stable sort by depth: a folder is mounted before anything inside it, so the inner mount stays visible.
  const ordered = mounts.map((mount, index) => ({ mount, index })).sort((a, b) => depth(a.mount.path) - depth(b.mount.path) || a.mount.rank - b.mount.rank || a.index - b.index);
  const args = [
    '--die-with-parent',
    '--new-session',
    '--unshare-pid',
    '--unshare-ipc',
    '--unshare-uts',
    ...(params.settings.network ? ['--share-net'] : ['--unshare-net']),
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    '--proc', '/proc',
  ];
  for (const { mount } of ordered) {
    if (mount.op === 'tmpfs') args.push('--tmpfs', mount.path);
    else args.push(mount.op === 'bind' ? '--bind' : '--ro-bind', mount.path, mount.path);
  }
  // A hidden folder is empty and read-only (a write there fails instead of vanishing); the workspace bound inside
  // one is a mount of its own and stays writable.
  for (const { mount } of ordered) if (mount.op === 'tmpfs' && mount.rank === 2) args.push('--remount-ro', mount.path);
  args.push('--chdir', workspace, '/bin/sh', '-c', params.script);
  return args;
}
