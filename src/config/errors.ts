import { UserFacingError } from '../core/errors.js';

/** sysexits EX_CONFIG: the configuration is wrong. */
export const CONFIG_EXIT_CODE = 78;

/** One thing wrong with a configuration file. */
export interface ConfigProblem {
  /** The file the problem is in. */
  readonly file: string;
  /** Dotted key path (e.g. "gateway.busy_policy"), or undefined when the problem is the file itself. */
  readonly keyPath: string | undefined;
  /** What was expected there (e.g. "one of interrupt|queue"). */
  readonly expected: string | undefined;
  /** What was found, already masked ("***") when it might be a secret. */
  readonly found: string | undefined;
  /** One line describing the problem, including file and key path. */
  readonly message: string;
}

/** Builds the one-line message for a problem: `file: key.path: expected X, found Y`. */
export function describeProblem(params: {
  file: string;
  /** Printed instead of `file` when given, e.g. "/h/config.yaml:3:7". */
  location?: string | undefined;
  keyPath?: string | undefined;
  expected?: string | undefined;
  found?: string | undefined;
  detail?: string | undefined;
}): string {
  const place = params.location ?? params.file;
  const where = params.keyPath === undefined ? place : `${place}: ${params.keyPath}`;
  if (params.detail !== undefined) return `${where}: ${params.detail}`;
  const found = params.found === undefined ? '' : `, found ${params.found}`;
  return `${where}: expected ${params.expected ?? 'a valid value'}${found}`;
}

/** A configuration file (config.yaml or .env) is wrong or unreadable. Exit code 78 (EX_CONFIG). */
export class ConfigError extends UserFacingError {
  override readonly name: string = 'ConfigError';
  /** The file at fault. */
  readonly file: string;
  /** Dotted key path of the first problem, when it is about a key. */
  readonly keyPath: string | undefined;
  /** What the first problem expected. */
  readonly expected: string | undefined;
  /** What the first problem found (never a secret: secret-looking values are "***"). */
  readonly found: string | undefined;
  /** Every problem found; `message` describes the first. */
  readonly problems: readonly ConfigProblem[];
  /** Warnings found on the way (a malformed .env line), which may explain a problem: listed after the problems. */
  readonly warnings: readonly string[];

  /**
   * `problems` must not be empty; the message lists every one of them, one per line (so all can be fixed at once),
   * then a `warning: ...` line for each of `warnings`.
   */
  constructor(params: { problems: readonly ConfigProblem[]; hint: string; cause?: unknown; warnings?: readonly string[] }) {
    const first = params.problems[0];
    if (first === undefined) throw new TypeError('ConfigError needs at least one problem');
    const listed =
      params.problems.length === 1 ? first.message : [`${params.problems.length} problems:`, ...params.problems.map((problem) => `  - ${problem.message}`)].join('\n');
    const warnings = params.warnings ?? [];
    const message = [listed, ...warnings.map((warning) => `warning: ${warning}`)].join('\n');
    super({ message, hint: params.hint, exitCode: CONFIG_EXIT_CODE, cause: params.cause });
    this.warnings = warnings;
    this.file = first.file;
    this.keyPath = first.keyPath;
    this.expected = first.expected;
    this.found = first.found;
    this.problems = params.problems;
  }
}

/** Shorthand for a ConfigError with a single problem. */
export function configError(params: {
  file: string;
  location?: string | undefined;
  keyPath?: string | undefined;
  expected?: string | undefined;
  found?: string | undefined;
  detail?: string | undefined;
  hint: string;
  cause?: unknown;
}): ConfigError {
  const problem: ConfigProblem = {
    file: params.file,
    keyPath: params.keyPath,
    expected: params.expected,
    found: params.found,
    message: describeProblem(params),
  };
  return new ConfigError({ problems: [problem], hint: params.hint, cause: params.cause });
}
