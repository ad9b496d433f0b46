import type { z } from 'zod';

/** Human words for zod's `expected` type names. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  string: 'a text value',
  object: 'a mapping (key: value lines)',
  array: 'a list',
};

/** How many characters of a found value to show. */
const MAX_SHOWN = 60;

/** Describes a found value for an error message; `***` when it is (or may be) a secret. */
export function describeFound(params: { value: unknown; secret: boolean; secrets?: ReadonlySet<string> }): string {
  const { value } = params;
  if (value === undefined) return 'nothing';
  if (value === null) return 'nothing (empty)';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (params.secret) return '***';
  if (typeof value === 'string') {
    if (params.secrets !== undefined && containsSecret(value, params.secrets)) return '***';
    const shown = value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN)}…` : value;
    return JSON.stringify(shown);
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint' || value === undefined) return String(value);
  return 'a value';
}

/** Says what a zod issue expected, in words a user understands. */
export function describeExpected(params: { issue: z.core.$ZodIssue }): string {
  const { issue } = params;
  switch (issue.code) {
    case 'invalid_type':
      return TYPE_WORDS[issue.expected] ?? issue.expected;
    case 'invalid_value':
      return `one of ${issue.values.map(String).join('|')}`;
    case 'too_small':
      return bound({ origin: issue.origin, limit: issue.minimum, inclusive: issue.inclusive, low: true });
    case 'too_big':
      return bound({ origin: issue.origin, limit: issue.maximum, inclusive: issue.inclusive, low: false });
    default:
      return issue.message;
  }
}

/** The value found at `path` in a raw tree (undefined when absent). */
export function valueAt(params: { tree: unknown; path: readonly PropertyKey[] }): unknown {
  let node: unknown = params.tree;
  for (const key of params.path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}

/** Words for a numeric/length bound. */
function bound(params: { origin: string; limit: number | bigint; inclusive: boolean | undefined; low: boolean }): string {
  const { origin, limit, low } = params;
  const inclusive = params.inclusive !== false;
  if (origin === 'string') return `${low ? 'at least' : 'at most'} ${String(limit)} characters`;
  if (origin === 'array') return `${low ? 'at least' : 'at most'} ${String(limit)} items`;
  const op = low ? (inclusive ? '>=' : '>') : inclusive ? '<=' : '<';
  return `a number ${op} ${String(limit)}`;
}

/** True when `text` is or contains one of the secrets (short ones ignored, they match too much). */
function containsSecret(text: string, secrets: ReadonlySet<string>): boolean {
  for (const secret of secrets) {
    if (secret.length >= 4 && text.includes(secret)) return true;
  }
  return false;
}
