import { readFile } from 'node:fs/promises';
import dotenv from 'dotenv';
import type { EnvSnapshot } from '../home/hermes-home.js';
import { configError } from './errors.js';
import { malformedEnvLines, type MalformedEnvLine } from './env-lines.js';

/** The variables of a profile's .env file. */
export interface ProfileEnv {
  /** Variables defined in the file (empty when there is no file). */
  readonly values: Readonly<Record<string, string>>;
  /** Whether the file exists. */
  readonly existed: boolean;
  /** Lines that are not KEY=value (ignored), by number; never their text, which may be a secret. */
  readonly malformed?: readonly MalformedEnvLine[];
}

/** Reads `envPath` with dotenv.parse (never dotenv.config: process.env is never touched). A missing file is empty. */
export async function readProfileEnv(params: { envPath: string }): Promise<ProfileEnv> {
  const { envPath } = params;
  let text: string;
  try {
    text = await readFile(envPath, 'utf8');
  } catch (error: unknown) {
    const code = errorCode(error);
    if (code === 'ENOENT') return { values: {}, existed: false };
    throw configError({
      file: envPath,
      detail: `cannot be read (${describeReadError(code)})`,
      hint:
        code === 'EISDIR'
          ? `Remove the directory ${envPath} and create a text file of KEY=value lines there (or none at all).`
          : `Make ${envPath} a text file readable by this user (e.g. chmod 600 ${envPath}), or remove it.`,
      cause: error,
    });
  }
  return { values: dotenv.parse(text), existed: true, malformed: malformedEnvLines({ text }) };
}

/** Layers the profile's .env over the inherited environment: the profile is more specific, so it wins. */
export function mergeEnv(params: { inherited: EnvSnapshot; profileEnv: ProfileEnv }): Readonly<Record<string, string>> {
  const merged: Record<string, string> = {};
  for (const [key, value] of Object.entries(params.inherited)) {
    if (value !== undefined) merged[key] = value;
  }
  return Object.freeze({ ...merged, ...params.profileEnv.values });
}

/** The errno code of a filesystem error, if it has one. */
function errorCode(error: unknown): string | undefined {
  if (error instanceof Error && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}

/** Says in words why a file could not be read. */
function describeReadError(code: string | undefined): string {
  if (code === 'EACCES' || code === 'EPERM') return `${code}: permission denied`;
  if (code === 'EISDIR') return 'EISDIR: it is a directory, not a file';
  return code ?? 'unknown error';
}
