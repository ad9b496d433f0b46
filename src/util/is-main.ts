import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** True when the module at `moduleUrl` is the script node was started with (also through an npm bin symlink). */
export function isMain(params: { moduleUrl: string }): boolean {
  const entry = process.argv[1];
  if (entry === undefined) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(params.moduleUrl));
  } catch {
    return false;
  }
}
