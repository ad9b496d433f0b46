import type { MemoryTarget } from './capability.js';
import { usageText } from './format.js';
import type { MemoryFileView } from './files.js';

/** One file's listing: a header with its usage, then its entries numbered (continuation lines indented). */
export function fileReport(params: { view: MemoryFileView }): string {
  const { view } = params;
  const head = `${view.fileName} — ${view.title}`;
  if (!view.enabled) return `${head}: off (${view.enableKey}: false)`;
  const count = view.entries.length === 1 ? '1 entry' : `${view.entries.length} entries`;
  const lines = [`${head}: ${count}, ${usageText({ used: view.used, limit: view.limit })}`];
  if (view.used > view.limit) lines.push('  (over the limit: the next write must make room)');
  if (view.entries.length === 0) lines.push('  (empty)');
  view.entries.forEach((entry, i) => {
    const label = `${i + 1}. `;
    lines.push(`  ${label}${entry.split('\n').join(`\n  ${' '.repeat(label.length)}`)}`);
  });
  return lines.join('\n');
}

/** Both files (or only `target`), one after the other, for `/memory` and `hermes memory show`. */
export function memoryReport(params: { read: (params: { target: MemoryTarget }) => MemoryFileView; target?: MemoryTarget }): string {
  const targets: readonly MemoryTarget[] = params.target === undefined ? ['memory', 'user'] : [params.target];
  return targets.map((target) => fileReport({ view: params.read({ target }) })).join('\n\n');
}
