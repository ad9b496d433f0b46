import type { EnvSnapshot } from '../home/hermes-home.js';
import { ConfigError, describeProblem, type ConfigProblem } from './errors.js';
import { formatKeyPath, looksSecretPath } from './secret-keys.js';

/** A `${...}` body: NAME or NAME:-default. */
const REFERENCE = /^([A-Za-z_][A-Za-z0-9_]*)(?::-([\s\S]*))?$/;

/** Where interpolation happens, for error messages. */
interface Context {
  readonly env: EnvSnapshot;
  readonly file: string;
  readonly envFile: string;
  readonly problems: ConfigProblem[];
}

/**
 * Replaces `${VAR}` and `${VAR:-default}` in every string scalar of a parsed YAML tree (never in keys);
 * `$${VAR}` stays a literal `${VAR}`. `:-` also applies when VAR is set but empty. Returns a new tree.
 * Throws a ConfigError listing every unset variable (with its key path) that has no default.
 */
export function interpolateTree(params: { tree: unknown; env: EnvSnapshot; file: string; envFile: string }): unknown {
  const result = interpolateCollecting(params);
  if (result.problems.length > 0) throw new ConfigError({ problems: result.problems, hint: interpolationHint({ envFile: params.envFile }) });
  return result.tree;
}

/** Like interpolateTree, but returns the problems (a reference left as written) instead of throwing: with the schema's, all are shown at once. */
export function interpolateCollecting(params: { tree: unknown; env: EnvSnapshot; file: string; envFile: string }): { tree: unknown; problems: readonly ConfigProblem[] } {
  const context: Context = { env: params.env, file: params.file, envFile: params.envFile, problems: [] };
  const tree = walk(params.tree, [], context);
  return { tree, problems: context.problems };
}

/** What to do about unset variables. */
export function interpolationHint(params: { envFile: string }): string {
  return `Define the missing variables in ${params.envFile} (or the environment), or give defaults with \${NAME:-value}.`;
}

/** Copies a YAML subtree, interpolating its strings. */
function walk(node: unknown, path: readonly PropertyKey[], context: Context): unknown {
  if (typeof node === 'string') return interpolateString(node, path, context);
  if (Array.isArray(node)) return node.map((item: unknown, index) => walk(item, [...path, index], context));
  if (node !== null && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) out[key] = walk(value, [...path, key], context);
    return out;
  }
  return node;
}

/** Interpolates one string scalar found at `path`. */
function interpolateString(text: string, path: readonly PropertyKey[], context: Context): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const escaped = text.startsWith('$${', i);
    if (!escaped && !text.startsWith('${', i)) {
      out += text[i];
      i += 1;
      continue;
    }
    const open = escaped ? i + 3 : i + 2;
    const close = text.indexOf('}', open);
    if (close === -1) {
      const shown = looksSecretPath({ path }) ? '"${"' : `"${text.slice(i)}"`;
      addProblem(context, path, `${shown} has no closing "}"; write \${NAME} or \${NAME:-default}`);
      return out + text.slice(i);
    }
    const body = text.slice(open, close);
    out += escaped ? `\${${body}}` : resolve(body, path, context);
    i = close + 1;
  }
  return out;
}

/** Resolves one `${body}` reference. */
function resolve(body: string, path: readonly PropertyKey[], context: Context): string {
  const match = REFERENCE.exec(body);
  const name = match?.[1];
  if (match === null || name === undefined) {
    const shown = looksSecretPath({ path }) ? '***' : `"\${${body}}"`;
    addProblem(context, path, `${shown} is not a valid reference; write \${NAME} or \${NAME:-default}`);
    return '';
  }
  const value = context.env[name];
  const fallback = match[2];
  if (fallback !== undefined) return value === undefined || value === '' ? fallback : value;
  if (value !== undefined) return value;
  addProblem(
    context,
    path,
    `\${${name}} is not set; add it to ${context.envFile} or give a default with \${${name}:-...}`,
    `${name} to be set`,
  );
  return '';
}

/** Records a problem at `path`. */
function addProblem(context: Context, path: readonly PropertyKey[], detail: string, expected?: string): void {
  const keyPath = formatKeyPath({ path });
  context.problems.push({
    file: context.file,
    keyPath,
    expected,
    found: undefined,
    message: describeProblem({ file: context.file, keyPath, detail }),
  });
}
