import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { UserFacingError } from '../gateway/errors.js';
import { writeActiveProfile } from '../home/active-profile.js';
import { ensureProfileDirs, resolveHermesHome, resolveProfile, type Profile } from '../home/index.js';
import { listProfiles } from '../home/list-profiles.js';
import { runningPid } from '../home/pid-lock.js';
import { packageRoot } from '../util/package-root.js';
import { println, type CliIO } from './output.js';
import { newProfile, profileDescription } from './profile-names.js';

/** Keys a clone never copies: platform credentials and who may talk to the bot. */
const privatePlatformKeys = new Set(['token', 'bot_token', 'app_token', 'signing_secret', 'password', 'username', 'auth_token', 'account_sid', 'allowed_users', 'allowed_roles', 'free_response_chats', 'free_response_channels', 'webhook']);

function home(params: { io: CliIO }): string {
  return resolveHermesHome({ env: params.io.env, homedir: os.homedir() });
}

/** config.yaml of `from` without platform tokens or allowlists, and with every platform disabled. */
function cloneConfig(params: { from: Profile }): string | undefined {
  if (!existsSync(params.from.configPath)) return undefined;
  const doc = parseDocument(readFileSync(params.from.configPath, 'utf8'));
  const json = doc.toJS() as { platforms?: Record<string, Record<string, unknown>> } | null;
  if (json?.platforms) {
    for (const [name, block] of Object.entries(json.platforms)) {
      if (typeof block !== 'object' || block === null) continue;
      for (const key of Object.keys(block)) if (privatePlatformKeys.has(key)) doc.deleteIn(['platforms', name, key]);
      doc.setIn(['platforms', name, 'enabled'], false);
    }
  }
  return doc.toString();
}

/** `hermes profile create NAME`: a new profile from the templates, or cloned from another (never its secrets). */
export function profileCreate(params: { io: CliIO; name: string; cloneFrom?: string; description?: string }): number {
  const hermesHome = home(params);
  const profile = newProfile({ hermesHome, name: params.name });
  const from = params.cloneFrom !== undefined ? resolveProfile({ hermesHome, name: params.cloneFrom }) : undefined;
  if (from && !existsSync(from.dir)) throw new UserFacingError({ message: `profile "${params.cloneFrom}" does not exist`, hint: '`hermes profile list` shows the profiles.', exitCode: 66 });
  mkdirSync(profile.dir, { recursive: true, mode: 0o700 });
  ensureProfileDirs({ profile });
  const templates = path.join(packageRoot(), 'profiles');
  writeFileSync(profile.configPath, (from && cloneConfig({ from })) ?? readFileSync(path.join(templates, 'config.yaml'), 'utf8'));
  const soul = from && existsSync(from.soulPath) ? from.soulPath : path.join(templates, 'SOUL.md');
  cpSync(soul, profile.soulPath);
  if (from) {
    for (const dir of ['memoriesDir', 'skillsDir'] as const) if (existsSync(from[dir])) cpSync(from[dir], profile[dir], { recursive: true });
  }
  writeFileSync(profile.envPath, '# Secrets for this profile only (mode 0600), e.g.\n# OPENAI_API_KEY=sk-...\n', { mode: 0o600 });
  chmodSync(profile.envPath, 0o600);
  writeFileSync(path.join(profile.dir, 'profile.json'), `${JSON.stringify({ description: params.description ?? '', createdFrom: params.cloneFrom ?? null }, null, 2)}\n`);
  println({ stream: params.io.stdout, text: `created profile "${params.name}" in ${profile.dir}${from ? ` (cloned from "${params.cloneFrom}", without its tokens, allowlists or history)` : ''}` });
  println({ stream: params.io.stdout, text: `next: put secrets in ${profile.envPath}, then \`hermes -p ${params.name} config validate\`` });
  return 0;
}

/** `hermes profile list`: every profile, its description and whether its gateway runs. */
export function profileList(params: { io: CliIO; active: string }): number {
  for (const profile of listProfiles({ hermesHome: home(params) })) {
    const name = profile.name;
    const pid = runningPid({ profile });
    const description = profileDescription({ profile });
    const marker = params.active === name ? '*' : ' ';
    println({ stream: params.io.stdout, text: `${marker} ${name.padEnd(20)} ${pid !== null ? `running (pid ${pid})` : 'stopped'.padEnd(20)}  ${description}`.trimEnd() });
  }
  return 0;
}

/** `hermes profile use NAME`: the sticky default for commands without -p. */
export function profileUse(params: { io: CliIO; name: string }): number {
  const hermesHome = home(params);
  const profile = resolveProfile({ hermesHome, name: params.name });
  if (!existsSync(profile.dir)) throw new UserFacingError({ message: `profile "${params.name}" does not exist`, hint: `Create it with \`hermes profile create ${params.name}\`.`, exitCode: 66 });
  writeActiveProfile({ hermesHome, name: params.name });
  println({ stream: params.io.stdout, text: `commands without -p now use profile "${params.name}"` });
  return 0;
}
