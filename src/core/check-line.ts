/** ✓ passed, ✗ failed (doctor exits 1), ! worth knowing but not a failure. */
export type CheckStatus = 'ok' | 'fail' | 'warn';

/** One printed line of `hermes doctor`. */
export interface CheckLine {
  readonly status: CheckStatus;
  /** What was checked, e.g. "node", "model endpoint", "telegram". */
  readonly name: string;
  /** What was found (never a secret). */
  readonly detail: string;
  /** What to do about a failure or warning. */
  readonly fix?: string;
}

/** Shorthand constructors for check lines. */
export const line = {
  /** A passed check. */
  ok: (name: string, detail: string): CheckLine => ({ status: 'ok', name, detail }),
  /** A failed check with its fix. */
  fail: (name: string, detail: string, fix: string | undefined): CheckLine => ({ status: 'fail', name, detail, ...(fix ? { fix } : {}) }),
  /** A warning with what to do. */
  warn: (name: string, detail: string, fix?: string): CheckLine => ({ status: 'warn', name, detail, ...(fix ? { fix } : {}) }),
};

/** The symbol printed for a status. */
export const STATUS_MARK: Readonly<Record<CheckStatus, string>> = { ok: '✓', fail: '✗', warn: '!' };

/** "✓ name: detail", plus an indented "fix:" line when there is one. */
export function formatCheckLine(params: { check: CheckLine }): string {
  const { check } = params;
  const head = `${STATUS_MARK[check.status]} ${check.name}: ${check.detail}`;
  return check.fix === undefined ? head : `${head}\n    fix: ${check.fix}`;
}
