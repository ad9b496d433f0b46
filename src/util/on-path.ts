import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** The first executable file `name` in the folders of `searchPath` (PATH's form), or undefined: a look at the disk, no process started. */
export function findOnPath(params: { name: string; searchPath: string }): string | undefined {
  for (const dir of params.searchPath.split(path.delimiter)) {
    if (dir === '') continue;
    const candidate = path.join(dir, params.name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // Not in this folder.
    }
  }
  return undefined;
}
