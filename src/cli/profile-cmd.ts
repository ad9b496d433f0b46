import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UserFacingError } from '../core/errors.js';
import { writeActiveProfile } from '../home/active-profile.js';
import { DEFAULT_PROFILE_NAME, ensureProfileDirs, resolveProfile } from '../home/index.js';
import { listProfiles } from '../home/list-profiles.js';
import { gatewayPid } from '../home/stop-gateway.js';
import { packageRoot } from '../util/package-root.js';
import { println, type CliIO } from './output.js';
import { cloneConfig } from './profile-clone.js';
import { inheritedModel, withModel } from './profile-inherit.js';
import { describeEnabledPlatforms } from './profile-platforms.js';
import { hermesHomeOf, newProfile, profileDescription } from './profile-names.js';

/** `hermes profile create NAME`: a new profile from the templates, or cloned from another (never its secrets). */
export function profileCreate(params: { io: CliIO; name: string; cloneFrom?: string; description?: string; withSecrets?: boolean }): number {
  const hermesHome = hermesHomeOf({ io: params.io });
  const profile = newProfile({ hermesHome, name: params.name });
  const from = params.cloneFrom !== undefined ? resolveProfile({ hermesHome, name: params.cloneFrom }) : undefined;
  if (from && !existsSync(from.dir)) throw new UserFacingError({ message: `profile "${params.cloneFrom}" does not exist`, hint: '`hermes profile list` shows the profiles.', exitCode: 66 });
  mkdirSync(profile.dir, { recursive: true, mode: 0o700 });
  ensureProfileDirs({ profile });
  const templates = path.join(packageRoot(), 'profiles');
  const base = (from && cloneConfig({ from })) ?? readFileSync(path.join(templates, 'config.yaml'), 'utf8');
  // The model the owner already set up (in the cloned profile, else the default one) carries over; its key only when asked.
  const inherited = inheritedModel({ from: from ?? resolveProfile({ hermesHome, name: DEFAULT_PROFILE_NAME }), withSecrets: params.withSecrets === true });
  writeFileSync(profile.configPath, inherited === undefined ? base : withModel({ text: base, model: inherited.node }));
  const soul = from && existsSync(from.soulPath) ? from.soulPath : path.join(templates, 'SOUL.md');
  cpSync(soul, profile.soulPath);
  if (from) {
    for (const dir of ['memoriesDir', 'skillsDir'] as const) if (existsSync(from[dir])) cpSync(from[dir], profile[dir], { recursive: true });
  }
  const keyLines = inherited?.envLines.map((line) => `${line}\n`).join('') ?? '';
  writeFileSync(profile.envPath, `# Secrets for this profile only (mode 0600), e.g.\n# OPENAI_API_KEY=sk-...\n${keyLines}`, { mode: 0o600 });
  chmodSync(profile.envPath, 0o600);
  writeFileSync(path.join(profile.dir, 'profile.json'), `${JSON.stringify({ description: params.description ?? '', createdFrom: params.cloneFrom ?? null }, null, 2)}\n`);
  println({ stream: params.io.stdout, text: `created profile "${params.name}" in ${profile.dir}${from ? ` (cloned from "${params.cloneFrom}", without its tokens, allowlists or history)` : ''}` });
  if (inherited !== undefined) {
    const source = params.cloneFrom ?? DEFAULT_PROFILE_NAME;
    println({ stream: params.io.stdout, text: `model: as in profile "${source}"${params.withSecrets === true ? ', with its key' : ' (its key not copied: --with-secrets copies it, or `hermes -p ' + params.name + ' setup model`)'}` });
  }
  println({ stream: params.io.stdout, text: `next: \`hermes -p ${params.name} setup\` (or put secrets in ${profile.envPath}, then \`hermes -p ${params.name} config validate\`)` });
  return 0;
}

/** `hermes profile list`: every profile, whether its gateway runs, the platforms it enables and its description. */
export function profileList(params: { io: CliIO; active: string }): number {
  const header = `  ${'NAME'.padEnd(20)} ${'GATEWAY'.padEnd(20)} ${'PLATFORMS'.padEnd(24)} DESCRIPTION`;
  println({ stream: params.io.stdout, text: header });
  for (const profile of listProfiles({ hermesHome: hermesHomeOf({ io: params.io }) })) {
    const name = profile.name;
    const pid = gatewayPid({ profile });
    const marker = params.active === name ? '*' : ' ';
    const state = pid !== null ? `running (pid ${pid})` : 'stopped';
    const platforms = describeEnabledPlatforms({ profile });
    println({ stream: params.io.stdout, text: `${marker} ${name.padEnd(20)} ${state.padEnd(20)} ${platforms.padEnd(24)} ${profileDescription({ profile })}`.trimEnd() });
  }
  return 0;
}

/** `hermes profile use NAME`: the sticky default for commands without -p. */
export function profileUse(params: { io: CliIO; name: string }): number {
  const hermesHome = hermesHomeOf({ io: params.io });
  const profile = resolveProfile({ hermesHome, name: params.name });
  if (!existsSync(profile.dir)) throw new UserFacingError({ message: `profile "${params.name}" does not exist`, hint: `Create it with \`hermes profile create ${params.name}\`.`, exitCode: 66 });
  writeActiveProfile({ hermesHome, name: params.name });
  println({ stream: params.io.stdout, text: `commands without -p now use profile "${params.name}"` });
  return 0;
}
