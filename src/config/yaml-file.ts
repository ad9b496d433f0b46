import { readFile } from 'node:fs/promises';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { configError } from './errors.js';
import { describeFound } from './describe-issue.js';
import { checkAliases } from './yaml-aliases.js';
import { errorCodeText } from '../util/error-text.js';

/** How many alias expansions a config file may use (guards against exponential "billion laughs" files). */
const MAX_ALIAS_COUNT = 100;

/** The raw (not yet validated) content of config.yaml. */
export interface RawConfigFile {
  /** The parsed mapping, with empty (null) values removed so they fall back to defaults. */
  readonly tree: Readonly<Record<string, unknown>>;
  /** Whether config.yaml exists. */
  readonly existed: boolean;
}

/** Reads and parses config.yaml. A missing or empty file is `{}`; a syntax error is a ConfigError with line:col. */
export async function readConfigFile(params: { configPath: string }): Promise<RawConfigFile> {
  const { configPath } = params;
  let text: string;
  try {
    text = await readFile(configPath, 'utf8');
  } catch (error: unknown) {
    const code = errorCodeText(error);
    if (code === 'ENOENT') return { tree: {}, existed: false };
    throw configError({
      file: configPath,
      detail: `cannot be read (${code})`,
      hint: `Make ${configPath} a YAML file readable by this user, or remove it to use the defaults.`,
      cause: error,
    });
  }
  return { tree: parseConfigText({ text, file: configPath }), existed: true };
}

/** Parses config.yaml text; `file` is only used in error messages. */
export function parseConfigText(params: { text: string; file: string }): Readonly<Record<string, unknown>> {
  const { text, file } = params;
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true, lineCounter });
  const first = doc.errors[0];
  if (first !== undefined) {
    const pos = first.linePos?.[0];
    const where = pos === undefined ? file : `${file}:${pos.line}:${pos.col}`;
    // Only the first line of the parser's message: the rest quotes the file, which may hold a secret.
    const reason = (first.message.split('\n')[0] ?? '').replace(/ at line \d+, column \d+:?$/, '');
    throw configError({
      file,
      location: where,
      detail: `YAML syntax error: ${reason}`,
      hint: `Fix the YAML at ${where} (check indentation, quotes and colons).`,
      cause: first,
    });
  }
  checkAliases({ doc, lineCounter, file });
  const tree = toPlainData({ doc, file });
  if (tree === null || tree === undefined) return {};
  if (typeof tree !== 'object' || Array.isArray(tree)) {
    throw configError({
      file,
      expected: 'a mapping of settings (key: value lines) at the top level',
      found: describeFound({ value: tree, secret: false }),
      hint: `Start ${file} with top-level keys such as "model:" or "platforms:" (see config.example.yaml).`,
    });
  }
  return dropNulls(tree as Record<string, unknown>);
}

/** The document as plain data; too many alias expansions (a "billion laughs" file) is a ConfigError. */
function toPlainData(params: { doc: Document; file: string }): unknown {
  try {
    return params.doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error: unknown) {
    if (!(error instanceof ReferenceError)) throw error;
    throw configError({
      file: params.file,
      detail: `YAML aliases expand to too many values (${error.message})`,
      hint: `Use fewer *aliases in ${params.file} (at most ${MAX_ALIAS_COUNT} expansions); write repeated values out instead.`,
      cause: error,
    });
  }
}

/** Removes keys whose value is empty (`key:` with nothing after it), recursively, so defaults apply. */
function dropNulls(node: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (value === null) continue;
    out[key] = value !== null && typeof value === 'object' && !Array.isArray(value) ? dropNulls(value as Record<string, unknown>) : value;
  }
  return out;
}
