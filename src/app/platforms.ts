import type { Logger } from 'pino';
import { platforms } from '../../adapters/index.js';
import type { Profile } from '../home/profile.js';
import type { Clock } from '../core/clock.js';
import type { AdapterEntry, PlatformFactory, SkillCommand } from '../core/platform.js';
import type { BlockOf } from '../core/platform-descriptor.js';
import { loadSkills, skillApplies } from '../skills/load.js';
import type { AppConfig, Platform, PlatformName, PlatformOf } from './config-schema.js';

export type { Platform, PlatformName, PlatformOf } from './config-schema.js';

/** Factories that stand in for the descriptors' own (tests); by platform name. */
export type PlatformLoaders = { readonly [K in PlatformName]?: () => Promise<PlatformFactory<BlockOf<PlatformOf<K>>>> };

/** What building the adapters of a config needs besides the config. */
export interface AdapterBuildParams {
  readonly config: AppConfig;
  readonly profile: Profile;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** The descriptor of `name`; undefined for a name no platform has. */
export function platformNamed(params: { name: string }): Platform | undefined {
  return platforms.find((platform) => platform.name === params.name);
}

/**
 * Builds one platform's adapter entry from its config block, loading its factory (and with it the platform's SDK)
 * now: a profile with only Telegram never loads discord.js, Bolt, twilio or imapflow.
 */
export async function buildAdapterEntry<K extends PlatformName>(params: AdapterBuildParams & { name: K; loaders?: PlatformLoaders }): Promise<AdapterEntry> {
  const descriptor = platforms.find((platform): platform is PlatformOf<K> => platform.name === params.name);
  if (descriptor === undefined) throw new Error(`this version of hermes has no ${params.name} platform`);
  const load = (params.loaders?.[params.name] ?? descriptor.load) as () => Promise<PlatformFactory<BlockOf<PlatformOf<K>>>>;
  const factory = await load();
  const { profile, clock, logger } = params;
  const skillCommands = (): SkillCommand[] => skillCommandsFor({ dir: profile.skillsDir, platform: params.name });
  const { http } = params.config.gateway;
  const gateway = { profileName: profile.name, cursor: params.config.stream.cursor, http: { enabled: http.enabled, host: http.host, port: http.port } };
  return factory({ config: params.config.platforms[params.name], cacheDir: profile.cacheDir, skillCommands, gateway, clock, logger });
}

/** The skills of `dir` that apply to `platform`, as commands (read from disk at each call). */
export function skillCommandsFor(params: { dir: string; platform: string }): SkillCommand[] {
  return loadSkills({ dir: params.dir })
    .skills.filter((skill) => skillApplies({ skill, platform: params.platform }))
    .map((skill) => ({ name: skill.meta.name, description: skill.meta.description }));
}

/** The adapters for every platform with `enabled: true` (a token alone never enables one), in the list's order. */
export async function adaptersFromConfig(params: AdapterBuildParams): Promise<AdapterEntry[]> {
  return Promise.all(enabledPlatforms({ config: params.config }).map((name) => buildAdapterEntry({ ...params, name })));
}

/** The names of the platforms with `enabled: true`, in the list's order. */
export function enabledPlatforms(params: { config: AppConfig }): PlatformName[] {
  return platforms.filter((platform) => params.config.platforms[platform.name].enabled).map((platform) => platform.name);
}
