import { statSync } from 'node:fs';
import type { OutboundAttachment } from '../../src/core/adapter.js';
import { terminalSafe } from './safe-text.js';

/** A size for people: bytes, KB, MB, GB (1024 steps, one decimal above bytes). */
export function humanSize(params: { bytes: number }): string {
  const units = ['KB', 'MB', 'GB', 'TB'];
  if (params.bytes < 1024) return `${params.bytes} B`;
  let value = params.bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit] ?? 'TB'}`;
}

/**
 * How the terminal shows a file a reply named in a `MEDIA:` line: its path (the one the reply named, not the staged
 * copy) and size. Nothing is uploaded anywhere; a file gone by now says so.
 */
export function mediaLine(params: { attachment: OutboundAttachment }): string {
  const { attachment } = params;
  const shown = terminalSafe({ text: attachment.sourcePath ?? attachment.path });
  try {
    return `📎 ${shown} (${humanSize({ bytes: statSync(attachment.path).size })})`;
  } catch {
    return `📎 ${shown} (not readable)`;
  }
}
