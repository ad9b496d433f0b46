import type { z } from 'zod';
import { ConfigError, describeProblem, type ConfigProblem } from './errors.js';
import { describeExpected, describeFound, valueAt } from './describe-issue.js';
import type { ConfigSchema, ParsedConfig } from './schema.js';
import { objectShape, schemaAt } from './schema-walk.js';
import { formatKeyPath, looksSecretPath } from './secret-keys.js';
import { closestMatch } from './suggest.js';

/** How many times unknown keys are stripped and the config re-validated. */
const MAX_PASSES = 8;

/** Something odd but harmless in a config file (e.g. an unknown key, which is ignored). */
export interface ConfigWarning {
  /** The file the warning is about. */
  readonly file: string;
  /** Dotted key path of the odd key. */
  readonly keyPath: string;
  /** One line: file, key path, what was ignored and a likely fix. */
  readonly message: string;
}

/** A validated config plus the warnings found on the way. */
export interface ValidatedConfig<T extends ParsedConfig = ParsedConfig> {
  /** The normalized config (defaults filled in, durations in ms, sizes in bytes). */
  readonly config: T;
  /** Unknown keys (ignored), with their key paths. */
  readonly warnings: readonly ConfigWarning[];
}

/**
 * Validates an interpolated config tree. Unknown keys become warnings (and are ignored); anything else
 * wrong is a ConfigError naming file, key path, what was expected and what was found (secrets masked).
 */
export function validateConfig<T extends ParsedConfig>(params: { tree: unknown; file: string; secrets?: ReadonlySet<string>; schema: ConfigSchema<T> }): ValidatedConfig<T> {
  const { file } = params;
  const input: unknown = structuredClone(params.tree ?? {});
  const warnings: ConfigWarning[] = [];
  // Each pass removes the unknown keys zod reported; one pass normally suffices, the bound guards against loops.
  for (let pass = 0; pass < MAX_PASSES; pass += 1) {
    // jitless: zod would otherwise compile (new Function) a fast parser for each object schema on its first parse,
    // which pays off only over many parses; a config is parsed once per command or gateway start (~35 ms saved).
    const result = params.schema.safeParse(input, { jitless: true });
    if (result.success) return { config: result.data, warnings };
    const unknownKeys = result.error.issues.filter((issue) => issue.code === 'unrecognized_keys');
    const others = result.error.issues.filter((issue) => issue.code !== 'unrecognized_keys');
    if (others.length > 0) {
      const problems = others.map((issue) => toProblem({ issue, input, file, secrets: params.secrets }));
      const first = problems[0];
      throw new ConfigError({
        problems,
        hint: `Fix ${first?.keyPath ?? 'the value'} in ${file}; config.example.yaml documents every key and its default.`,
      });
    }
    if (unknownKeys.length === 0) throw new Error('config validation failed without reporting an issue');
    for (const issue of unknownKeys) {
      const parent = valueAt({ tree: input, path: issue.path });
      for (const key of issue.keys) {
        warnings.push(unknownKeyWarning({ file, parentPath: issue.path, key, schema: params.schema }));
        if (parent !== null && typeof parent === 'object') delete (parent as Record<string, unknown>)[key];
      }
    }
  }
  throw new Error(`config validation did not settle after ${MAX_PASSES} passes`);
}

/** Turns one zod issue into a problem with expected/found in words. */
function toProblem(params: {
  issue: z.core.$ZodIssue;
  input: unknown;
  file: string;
  secrets: ReadonlySet<string> | undefined;
}): ConfigProblem {
  const { issue, file } = params;
  const keyPath = formatKeyPath({ path: issue.path });
  const expected = describeExpected({ issue });
  const found = describeFound({
    value: valueAt({ tree: params.input, path: issue.path }),
    secret: looksSecretPath({ path: issue.path }),
    secrets: params.secrets,
  });
  return { file, keyPath, expected, found, message: describeProblem({ file, keyPath, expected, found }) };
}

/** The warning for an unknown key, suggesting the known key it was probably meant to be. */
function unknownKeyWarning(params: { file: string; parentPath: readonly PropertyKey[]; key: string; schema: ConfigSchema<ParsedConfig> }): ConfigWarning {
  const { file, parentPath, key } = params;
  const keyPath = formatKeyPath({ path: [...parentPath, key] });
  const parentSchema = schemaAt({ schema: params.schema, path: parentPath });
  const known = parentSchema === undefined ? [] : Object.keys(objectShape({ schema: parentSchema }) ?? {});
  const guess = closestMatch({ word: key, candidates: known });
  const suggestion = guess === undefined ? '' : ` (did you mean "${guess}"?)`;
  return { file, keyPath, message: `${file}: ${keyPath}: unknown key ignored${suggestion}` };
}
