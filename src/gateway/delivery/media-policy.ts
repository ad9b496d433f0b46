import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { Profile } from '../../home/profile.js';
import type { FileScan } from '../../secrets/file-scan.js';
import type { SecretGuard } from '../../secrets/guard.js';

/** Decides whether a file named in a `MEDIA:` line may be sent; resolves with the reason when it may not. */
export type MediaPolicy = (params: { path: string }) => Promise<string | undefined>;

/** The real path of a file (symlinks resolved), or the path itself when it does not exist. */
async function real(file: string): Promise<string> {
  try {
    return await realpath(file);
  } catch {
    return path.resolve(file);
  }
}

function inside(params: { file: string; dir: string }): boolean {
  const rel = path.relative(params.dir, params.file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The files a reply may attach: never the profile's secrets and state (.env, config.yaml, state.db, logs/,
 * any `.env`), and, when tools are confined, only files inside the workspace or the profile's cache —
 * so text that reaches the model (a group member, an email) cannot make it mail out arbitrary files.
 * Secrets are protected by content too: a file whose bytes hold one (a copy of .env, its base64, ...) is refused.
 */
export function mediaPolicy(params: { profile: Profile; workspace: string; confine: boolean; secrets: Pick<SecretGuard, 'scanFile'> }): MediaPolicy {
  const { profile } = params;
  const forbidden = [profile.envPath, profile.configPath, profile.dbPath, `${profile.dbPath}-wal`, `${profile.dbPath}-shm`, profile.pidPath];
  return async ({ path: requested }) => {
    const file = await real(requested);
    const [logsDir, workspace, cacheDir] = await Promise.all([real(profile.logsDir), real(params.workspace), real(profile.cacheDir)]);
    const secrets = await Promise.all(forbidden.map(real));
    if (secrets.includes(file) || path.basename(file) === '.env' || inside({ file, dir: logsDir })) {
      return "it is one of the gateway's own private files (secrets, config, database or logs)";
    }
    if (params.confine && !inside({ file, dir: workspace }) && !inside({ file, dir: cacheDir })) {
      return `it is outside the workspace ${params.workspace}; only files there (or in the profile cache) can be sent`;
    }
    return contentProblem({ scan: await params.secrets.scanFile({ path: file }) });
  };
}

/** Why a scanned file may not be sent, or undefined (also when it cannot be read: the send check names that). */
function contentProblem(params: { scan: FileScan }): string | undefined {
  const { scan } = params;
  if (scan.kind === 'secret') return "it contains one of the profile's secrets (a token, key or password), so it is not sent";
  if (scan.kind === 'too_large') return `it is too large to check for secrets (${scan.size} bytes; at most ${scan.limit} are checked)`;
  return undefined;
}
