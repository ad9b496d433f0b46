import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** Bytes used by a file, or by a folder and everything below it (links not followed); 0 when it does not exist. */
export function diskUsage(params: { path: string }): number {
  let stat;
  try {
    stat = lstatSync(params.path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const name of readdirSync(params.path)) total += diskUsage({ path: path.join(params.path, name) });
  return total;
}

/** "812 B", "4.2 KB", "17.0 MB" (powers of 1024). */
export function formatBytes(params: { bytes: number }): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = params.bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}
