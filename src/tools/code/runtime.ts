import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { findOnPath } from '../../util/on-path.js';

/** The languages an execute_code script may be written in. */
export type CodeLanguage = 'python' | 'javascript';

/** The interpreters found on this host: Python when `python3` works, always Node (the gateway's own binary). */
export interface CodeRuntime {
  /** What a script is written in when the call does not say. */
  readonly language: CodeLanguage;
  /** Absolute path of the Python interpreter (sys.executable: past a pyenv shim, a venv's kept); absent without python3. */
  readonly python?: string;
  /** Absolute path of node (process.execPath). */
  readonly node: string;
}

/** Longest the `python3` probe may take. */
const PROBE_TIMEOUT_MS = 5_000;

let cached: CodeRuntime | undefined;

/**
 * Finds `python3` on the gateway's PATH and asks it for its real executable (a pyenv shim needs the gateway's HOME,
 * which a script does not get, so the script runs the interpreter itself). Uncached; see codeRuntime.
 */
export function probeCodeRuntime(params: { searchPath?: string } = {}): CodeRuntime {
  const node = process.execPath;
  const env: Record<string, string> = { ...stringEnv(), PATH: params.searchPath ?? process.env['PATH'] ?? '/usr/bin:/bin' };
  const result = spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { env, timeout: PROBE_TIMEOUT_MS, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const printed = result.status === 0 ? result.stdout.trim() : '';
  if (printed === '' || !printed.startsWith('/')) return { language: 'javascript', node };
  try {
    accessSync(printed, constants.X_OK);
    return { language: 'python', python: printed, node };
  } catch {
    return { language: 'javascript', node };
  }
}


/**
 * The host's runtime, once per process. Starting `python3` to ask for its real executable takes from 30 ms to a
 * few hundred (a pyenv shim), so start-up only looks for `python3` on the PATH; the probe runs at the first
 * script that needs the interpreter. A `python3` that is on the PATH but does not run then gets the same answer
 * as a missing one (write the script in JavaScript).
 */
export function codeRuntime(): CodeRuntime {
  if (cached !== undefined) return cached;
  const node = process.execPath;
  if (findOnPath({ name: 'python3', searchPath: process.env['PATH'] ?? '/usr/bin:/bin' }) === undefined) {
    cached = { language: 'javascript', node };
    return cached;
  }
  let probed: CodeRuntime | undefined;
  cached = {
    language: 'python',
    node,
    get python(): string | undefined {
      probed ??= probeCodeRuntime();
      return probed.python;
    },
  };
  return cached;
}

function stringEnv(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) out[key] = value;
  return out;
}
