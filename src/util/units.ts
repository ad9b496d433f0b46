/** Milliseconds per duration unit. */
const DURATION_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Bytes per size unit (powers of 1024). */
const SIZE_UNITS: Readonly<Record<string, number>> = {
  b: 1,
  k: 1024,
  kb: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
};

/** How a duration may be written; used in error messages. */
export const DURATION_HINT = 'a duration such as 500ms, 30s, 2m, 1h or 7d (a bare number means seconds)';

/** How a size may be written; used in error messages. */
export const SIZE_HINT = 'a size such as 512k, 10m or 1g (a bare number means bytes)';

/** Parses a duration (number = seconds, or "500ms" / "1s" / "2m" / "1h" / "7d") to milliseconds; undefined when invalid. */
export function parseDuration(params: { value: unknown }): number | undefined {
  const { value } = params;
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.round(value * 1000) : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/i.exec(value);
  if (match === null) return undefined;
  const unit = DURATION_UNITS[(match[2] ?? 's').toLowerCase()] ?? 1000;
  return Math.round(Number(match[1]) * unit);
}

/** Parses a size (number = bytes, or "512k" / "10m" / "1g") to bytes; undefined when invalid. */
export function parseSize(params: { value: unknown }): number | undefined {
  const { value } = params;
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? Math.floor(value) : undefined;
  if (typeof value !== 'string') return undefined;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?b?)?\s*$/i.exec(value);
  if (match === null) return undefined;
  const unit = SIZE_UNITS[(match[2] || 'b').toLowerCase()];
  return unit === undefined ? undefined : Math.floor(Number(match[1]) * unit);
}

/** Writes milliseconds back in the largest exact unit ("2m", "1500ms"), so it parses to the same value. */
export function formatDuration(params: { ms: number }): string {
  const { ms } = params;
  for (const unit of ['h', 'm', 's'] as const) {
    const size = DURATION_UNITS[unit] ?? 1;
    if (ms > 0 && ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/** Writes bytes back in the largest exact unit ("10m", "1536"), so it parses to the same value. */
export function formatSize(params: { bytes: number }): string {
  const { bytes } = params;
  for (const unit of ['g', 'm', 'k'] as const) {
    const size = SIZE_UNITS[unit] ?? 1;
    if (bytes > 0 && bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return String(bytes);
}
