import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findOnPath } from '../../util/on-path.js';

/** Longest the probe's `bwrap … /bin/true` may take. */
const PROBE_TIMEOUT_MS = 5_000;

/** Whether bubblewrap confines a command on this host: its absolute path, or why not. */
export type ProbeResult = { readonly ok: true; readonly bwrap: string } | { readonly ok: false; readonly reason: string };

const cache = new Map<string, ProbeResult>();


/** Runs `bwrap … /bin/true` with the namespaces the terminal uses; uncached (see probeBwrap). */
export function runBwrapProbe(params: { name?: string; searchPath?: string } = {}): ProbeResult {
  const name = params.name ?? 'bwrap';
  const bwrap = path.isAbsolute(name) ? name : findOnPath({ name, searchPath: params.searchPath ?? process.env['PATH'] ?? '/usr/bin:/bin' });
  if (bwrap === undefined || !fs.existsSync(bwrap)) return { ok: false, reason: 'bubblewrap (bwrap) is not installed' };
  const args = ['--die-with-parent', '--new-session', '--unshare-pid', '--unshare-ipc', '--unshare-uts', '--unshare-net', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp', '/bin/true'];
  const result = spawnSync(bwrap, args, { env: { PATH: '/usr/bin:/bin' }, timeout: PROBE_TIMEOUT_MS, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (result.error) return { ok: false, reason: `bwrap does not start (${result.error.message})` };
  if (result.status === 0) return { ok: true, bwrap };
  const said = (result.stderr ?? '').trim().split('\n')[0]?.replace(/^bwrap: /, '') ?? '';
  const how = result.signal ? `was killed by ${result.signal}` : `exited with ${result.status ?? 'no code'}`;
  return { ok: false, reason: `bwrap cannot create its namespaces here (${said === '' ? how : said}; user namespaces may be disabled)` };
}

/** Whether bwrap works here, probed once per process (per binary name) and cached. */
export function probeBwrap(params: { name?: string } = {}): ProbeResult {
  const key = params.name ?? 'bwrap';
  const known = cache.get(key);
  if (known !== undefined) return known;
  const result = runBwrapProbe({ name: key });
  cache.set(key, result);
  return result;
}
