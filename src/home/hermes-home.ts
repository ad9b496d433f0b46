import path from 'node:path';

/** A read-only snapshot of environment variables (the CLI entry passes one; nothing reads process.env). */
export type EnvSnapshot = Readonly<Record<string, string | undefined>>;

/**
 * Where all of Hermes' state lives: `$HERMES_HOME` when set (made absolute against `cwd`,
 * a leading `~/` meaning `homedir`), otherwise `<homedir>/.hermes`.
 */
export function resolveHermesHome(params: { env: EnvSnapshot; homedir: string; cwd?: string }): string {
  const { env, homedir } = params;
  const fromEnv = env['HERMES_HOME']?.trim();
  if (fromEnv === undefined || fromEnv === '') return path.join(homedir, '.hermes');
  if (fromEnv === '~') return path.resolve(homedir);
  if (fromEnv.startsWith('~/')) return path.resolve(homedir, fromEnv.slice(2));
  return params.cwd === undefined ? path.resolve(fromEnv) : path.resolve(params.cwd, fromEnv);
}
