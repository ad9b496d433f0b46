import path from 'node:path';
import type { EnvSnapshot } from '../home/hermes-home.js';
import type { Profile } from '../home/profile.js';
import { deprecatedKeyWarnings } from './deprecated.js';
import { httpExposureWarnings } from './http-exposure.js';
import { interpolateCollecting, interpolationHint } from './interpolate.js';
import { ConfigError, type ConfigProblem } from './errors.js';
import { mergeEnv, readProfileEnv } from './profile-env.js';
import type { MalformedEnvLine } from './env-lines.js';
import type { ConfigSchema, GatewayConfig, ParsedConfig, ResolvedConfig } from './schema.js';
import { collectSecrets } from './secrets.js';
import { validateConfig, type ConfigWarning, type ValidatedConfig } from './validate.js';
import { readConfigFile, type RawConfigFile } from './yaml-file.js';

/** A file the config was (or would have been) read from. */
export interface ConfigSource {
  /** Absolute path of the file. */
  readonly path: string;
  /** Whether it existed (a missing config.yaml means "all defaults"). */
  readonly existed: boolean;
}

/** Everything loadConfig found out about a profile's configuration. */
export interface LoadedConfig<T extends ParsedConfig = ParsedConfig> {
  /** The effective, validated configuration. */
  readonly config: ResolvedConfig<T>;
  /** Things to show the user that do not stop loading (unknown keys, an HTTP server open to the network). */
  readonly warnings: readonly ConfigWarning[];
  /** Strings to redact from logs and output (.env values and secret-looking config values). */
  readonly secrets: readonly string[];
  /** The inherited environment snapshot with the profile's .env layered on top. */
  readonly env: Readonly<Record<string, string>>;
  /** Where the configuration came from. */
  readonly sources: { readonly configFile: ConfigSource; readonly envFile: ConfigSource };
}

/**
 * Loads a profile's configuration: its .env (over the inherited `env` snapshot), then config.yaml
 * with `${VAR}` interpolation, validated against the schema. A missing config.yaml means defaults.
 * Throws ConfigError (exit code 78) for anything the user has to fix. Never touches process.env.
 */
export async function loadConfig<T extends ParsedConfig>(params: { profile: Profile; env: EnvSnapshot; schema: ConfigSchema<T> }): Promise<LoadedConfig<T>> {
  const { profile } = params;
  const profileEnv = await readProfileEnv({ envPath: profile.envPath });
  const env = mergeEnv({ inherited: params.env, profileEnv });
  const envWarnings = envLineWarnings({ envFile: profile.envPath, malformed: profileEnv.malformed ?? [] });
  let raw: RawConfigFile;
  let validated: ValidatedConfig<T>;
  try {
    raw = await readConfigFile({ configPath: profile.configPath });
    const interpolated = interpolateCollecting({ tree: raw.tree, env, file: profile.configPath, envFile: profile.envPath });
    const envSecrets = new Set(Object.values(profileEnv.values).filter((value) => value !== ''));
    validated = validateAll({ interpolated, file: profile.configPath, envFile: profile.envPath, secrets: envSecrets, schema: params.schema });
  } catch (error) {
    // A .env line dotenv skipped is often why a ${VAR} is unset: it is said with the problems, not lost with the warnings.
    if (!(error instanceof ConfigError) || envWarnings.length === 0) throw error;
    throw new ConfigError({ problems: error.problems, hint: error.hint ?? '', cause: error.cause, warnings: [...envWarnings.map((w) => w.message), ...error.warnings] });
  }
  const config = withEnvFallbacks({ config: resolvePaths({ parsed: validated.config, profile, home: env['HOME'] }), env });
  return {
    config,
    warnings: [...envWarnings, ...validated.warnings, ...httpExposureWarnings({ config, file: profile.configPath }), ...deprecatedKeyWarnings({ config, file: profile.configPath })],
    secrets: collectSecrets({ config, envFileValues: profileEnv.values }),
    env,
    sources: {
      configFile: { path: profile.configPath, existed: raw.existed },
      envFile: { path: profile.envPath, existed: profileEnv.existed },
    },
  };
}

/**
 * Values that fall back to the environment when config.yaml leaves them out, the way the OpenAI SDK does:
 * model.api_key ← OPENAI_API_KEY (from the profile's .env or the inherited environment).
 */
function withEnvFallbacks<C extends GatewayConfig>(params: { config: C; env: Readonly<Record<string, string>> }): C {
  const { config, env } = params;
  const key = env['OPENAI_API_KEY'];
  if (config.model.api_key !== undefined || key === undefined || key === '') return config;
  return { ...config, model: { ...config.model, api_key: key } };
}

/**
 * Fills in profile-relative paths: tools.workspace defaults to the profile's workspace/;
 * a relative path is under the profile dir and `~/` is the user's home.
 */
function resolvePaths<T extends ParsedConfig>(params: { parsed: T; profile: Profile; home: string | undefined }): ResolvedConfig<T> {
  const { parsed, profile, home } = params;
  const configured = parsed.tools.workspace;
  let workspace = profile.workspaceDir;
  if (configured !== undefined && home !== undefined && (configured === '~' || configured.startsWith('~/'))) {
    workspace = path.resolve(home, configured.slice(2));
  } else if (configured !== undefined) {
    workspace = path.resolve(profile.dir, configured);
  }
  // The spread of a generic T is typed as an intersection TypeScript cannot match to Omit<T, 'tools'> & {...}.
  return { ...parsed, tools: { ...parsed.tools, workspace } } as ResolvedConfig<T>;
}

/**
 * Validates the interpolated tree and throws one ConfigError with every problem: the unset variables first, then
 * the schema's (a key whose variable is unset is reported once, for the variable).
 */
function validateAll<T extends ParsedConfig>(params: {
  interpolated: { tree: unknown; problems: readonly ConfigProblem[] };
  file: string;
  envFile: string;
  secrets: ReadonlySet<string>;
  schema: ConfigSchema<T>;
}): ValidatedConfig<T> {
  const unset = params.interpolated.problems;
  try {
    const validated = validateConfig({ tree: params.interpolated.tree, file: params.file, secrets: params.secrets, schema: params.schema });
    if (unset.length > 0) throw new ConfigError({ problems: unset, hint: interpolationHint({ envFile: params.envFile }) });
    return validated;
  } catch (error) {
    if (unset.length === 0 || !(error instanceof ConfigError) || error.problems === unset) throw error;
    const taken = new Set(unset.map((problem) => problem.keyPath));
    const problems = [...unset, ...error.problems.filter((problem) => !taken.has(problem.keyPath))];
    throw new ConfigError({ problems, hint: `${interpolationHint({ envFile: params.envFile })} ${error.hint ?? ''}`.trim() });
  }
}

/** A warning for each .env line that is not KEY=value: dotenv skips it, so a secret meant to be there is missing. */
function envLineWarnings(params: { envFile: string; malformed: readonly MalformedEnvLine[] }): ConfigWarning[] {
  return params.malformed.map(({ line }) => ({
    file: params.envFile,
    keyPath: `line ${line}`,
    message: `${params.envFile}:${line}: not a KEY=value line; ignored (write NAME=value, or start a comment with #)`,
  }));
}
