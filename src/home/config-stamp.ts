import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { EnvSnapshot } from './hermes-home.js';
import type { Profile } from './profile.js';
import { writeFileAtomic } from '../util/atomic-write.js';

/**
 * A note that a profile's configuration loaded, keyed by a fingerprint of everything loadConfig's verdict depends on:
 * `hermes status` asks it before loading the schema (zod, yaml: most of what status costs), so an unchanged config is
 * not validated again on every run. Any change to config.yaml, .env, an environment variable config.yaml names, the
 * build or node itself gives another fingerprint, and the config is loaded (and checked) again. Only a config that
 * loaded is ever noted; `config validate` and the gateway never read the note.
 */

/** The stamp's file, beside gateway.json: profile state, not the cache/ folder that replies may attach from. */
function stampPath(params: { profile: Profile }): string {
  return path.join(params.profile.dir, 'config-valid.json');
}

/** Bumped when what goes into the fingerprint changes. */
const FORMAT = 1;

/** Variables loadConfig reads whether or not config.yaml names them (the api_key fallback; `~/` paths). */
const ALWAYS_READ = ['HOME', 'OPENAI_API_KEY'];

/** A file's text, null when it does not exist; undefined when it cannot be read (then nothing is known). */
function readText(params: { file: string }): string | null | undefined {
  try {
    return readFileSync(params.file, 'utf8');
  } catch (error) {
    return error instanceof Error && 'code' in error && error.code === 'ENOENT' ? null : undefined;
  }
}

/**
 * The fingerprint of a profile's config inputs under this build: config.yaml's and .env's text, the inherited value
 * of every variable config.yaml names in a `${...}` (and HOME, OPENAI_API_KEY), the profile's folder, the build id and
 * node's version (time zones come from its ICU). Undefined when a file cannot be read: then only loading tells.
 */
export function configFingerprint(params: { profile: Profile; env: EnvSnapshot; buildId: string }): string | undefined {
  const config = readText({ file: params.profile.configPath });
  const dotenv = readText({ file: params.profile.envPath });
  if (config === undefined || dotenv === undefined) return undefined;
  const named = new Set(ALWAYS_READ);
  for (const match of (config ?? '').matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)) named.add(match[1] ?? '');
  const inherited = [...named].sort().map((name) => [name, params.env[name] ?? null]);
  const inputs = { format: FORMAT, build: params.buildId, node: process.version, dir: params.profile.dir, config, dotenv, inherited };
  return createHash('sha256').update(JSON.stringify(inputs)).digest('hex');
}

/** Whether the last config noted as loading had this fingerprint. */
export function knownValid(params: { profile: Profile; fingerprint: string }): boolean {
  const text = readText({ file: stampPath(params) });
  if (typeof text !== 'string') return false;
  try {
    return (JSON.parse(text) as { fingerprint?: unknown }).fingerprint === params.fingerprint;
  } catch {
    return false;
  }
}

/** Notes that the config with this fingerprint loaded. A stamp is only a shortcut: a disk that refuses it is let be. */
export function rememberValid(params: { profile: Profile; fingerprint: string }): void {
  try {
    writeFileAtomic({ file: stampPath(params), text: `${JSON.stringify({ fingerprint: params.fingerprint })}\n` });
  } catch {
    // full, read-only or gone: the next status loads the config again
  }
}
