import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import { isSeq, parseDocument, type Document } from 'yaml';
import { interpolateCollecting } from '../../config/interpolate.js';
import { ConfigError } from '../../config/errors.js';
import { mergeEnv } from '../../config/profile-env.js';
import { parseConfigText } from '../../config/yaml-file.js';
import type { AppConfig, AppParsedConfig } from '../../app/config-schema.js';
import type { ConfigSchema } from '../../config/schema.js';
import { validateConfig } from '../../config/validate.js';
import type { EnvSnapshot } from '../../home/hermes-home.js';
import type { Profile } from '../../home/profile.js';
import { UserFacingError } from '../../core/errors.js';
import { packageRoot } from '../../util/package-root.js';

/** A .env variable name (what `${NAME}` in config.yaml can reference). */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * A profile's config.yaml (as a yaml Document, so the owner's comments and other keys stay) and .env text, edited in
 * memory by a setup section and written only by `save`, after the section's checks passed.
 */
export class SetupFiles {
  /** The profile being set up. */
  readonly profile: Profile;
  private readonly doc: Document;
  private envText: string;

  private constructor(params: { profile: Profile; doc: Document; envText: string }) {
    this.profile = params.profile;
    this.doc = params.doc;
    this.envText = params.envText;
  }

  /** Reads the profile's files; a missing config.yaml starts from the profile template (profiles/config.yaml). */
  static open(params: { profile: Profile }): SetupFiles {
    const { profile } = params;
    const text = existsSync(profile.configPath) ? readFileSync(profile.configPath, 'utf8') : readFileSync(path.join(packageRoot(), 'profiles', 'config.yaml'), 'utf8');
    // Syntax errors, aliases bombs and a non-mapping top level are refused the way loading refuses them.
    parseConfigText({ text, file: profile.configPath });
    const envText = existsSync(profile.envPath) ? readFileSync(profile.envPath, 'utf8') : '';
    return new SetupFiles({ profile, doc: parseDocument(text), envText });
  }

  /** The plain value at `keyPath` in config.yaml (before `${VAR}` interpolation), or undefined. */
  get(params: { keyPath: readonly string[] }): unknown {
    const value: unknown = this.doc.getIn(params.keyPath);
    return value !== null && typeof value === 'object' && 'toJSON' in value ? (value as { toJSON: () => unknown }).toJSON() : value;
  }

  /** Sets one key of config.yaml (creating the mappings on the way); the rest of the file is kept as it is. */
  set(params: { keyPath: readonly string[]; value: unknown }): void {
    this.doc.setIn(params.keyPath, params.value);
  }

  /** Adds `item` to the list at `keyPath` unless it is there already (creating the list). */
  addToList(params: { keyPath: readonly string[]; item: string }): void {
    const node: unknown = this.doc.getIn(params.keyPath, true);
    if (isSeq(node)) {
      const items = node.toJSON();
      if (!items.some((existing) => String(existing) === params.item)) node.add(this.doc.createNode(params.item));
      return;
    }
    this.doc.setIn(params.keyPath, this.doc.createNode([params.item]));
  }

  /** The value of NAME in the profile's .env, or undefined. */
  envValue(params: { name: string }): string | undefined {
    return dotenv.parse(this.envText)[params.name];
  }

  /** Sets NAME=value in .env: replaces its line, or appends one; the other lines and comments stay. */
  setEnv(params: { name: string; value: string }): void {
    const { name, value } = params;
    if (!ENV_NAME.test(name)) {
      throw new UserFacingError({ message: `${JSON.stringify(name)} is not a variable name for ${this.profile.envPath}`, hint: 'Use letters, digits and _ (e.g. OPENAI_API_KEY).', exitCode: 64 });
    }
    const line = `${name}=${quoteEnv({ value })}`;
    const lines = this.envText === '' ? [] : this.envText.replace(/\n$/, '').split('\n');
    const at = lines.findIndex((text) => new RegExp(`^\\s*(?:export\\s+)?${name}\\s*=`).test(text));
    if (at >= 0) lines[at] = line;
    else lines.push(line);
    this.envText = `${lines.join('\n')}\n`;
  }

  /**
   * The effective config these edits would give (the .env over `env`, `${VAR}`s filled in, validated): a ConfigError
   * listing every problem when the result would not load, so nothing is written that `config validate` refuses.
   */
  candidate(params: { env: EnvSnapshot; schema: ConfigSchema<AppParsedConfig> }): AppConfig {
    const { profile } = this;
    const tree = parseConfigText({ text: this.doc.toString(), file: profile.configPath });
    const env = mergeEnv({ inherited: params.env, profileEnv: { values: dotenv.parse(this.envText), existed: true } });
    const interpolated = interpolateCollecting({ tree, env, file: profile.configPath, envFile: profile.envPath });
    const first = interpolated.problems[0];
    if (first !== undefined) throw new ConfigError({ problems: interpolated.problems, hint: `Set the variables in ${profile.envPath}.` });
    const parsed = validateConfig({ tree: interpolated.tree, file: profile.configPath, schema: params.schema }).config;
    return { ...parsed, tools: { ...parsed.tools, workspace: profile.workspaceDir } };
  }

  /** Writes config.yaml and .env (mode 0600, also when it existed with looser permissions). */
  save(): void {
    const { profile } = this;
    writeFileSync(profile.configPath, this.doc.toString(), { mode: 0o600 });
    writeFileSync(profile.envPath, this.envText, { mode: 0o600 });
    chmodSync(profile.envPath, 0o600);
  }
}

/** A .env value dotenv reads back unchanged: bare when it is plain, else in single (or double) quotes. */
function quoteEnv(params: { value: string }): string {
  const { value } = params;
  if (/^[A-Za-z0-9_./:+@%^,=~-]*$/.test(value)) return value;
  if (!/[\r\n]/.test(value) && !value.includes("'")) return `'${value}'`;
  if (!/[\r\n]/.test(value) && !value.includes('"') && !value.includes('\\')) return `"${value}"`;
  throw new UserFacingError({ message: 'the value cannot be written to .env as it is (it holds a line break, or both kinds of quotes)', hint: 'Check what was pasted.', exitCode: 64 });
}
