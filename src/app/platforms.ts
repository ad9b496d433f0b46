import type { Logger } from 'pino';
import type { GatewayConfig, PlatformName } from '../config/schema.js';
import type { Profile } from '../home/profile.js';
import type { Clock } from '../core/clock.js';
import { UserFacingError } from '../core/errors.js';
import type { AdapterEntry, PlatformFactory, SkillCommand } from '../core/platform.js';
import { loadSkills, skillApplies } from '../skills/load.js';

/** The factory of one platform, typed by its own config block. */
export type PlatformFactoryOf<K extends PlatformName> = PlatformFactory<GatewayConfig['platforms'][K]>;

/** Loads a platform's factory (and with it the platform's SDK) when the platform is first needed. */
export type PlatformLoader<K extends PlatformName> = () => Promise<PlatformFactoryOf<K>>;

/** A loader per platform this build ships. */
export type PlatformLoaders = { [K in PlatformName]?: PlatformLoader<K> };

/** What building the adapters of a config needs besides the config. */
export interface AdapterBuildParams {
  readonly config: GatewayConfig;
  readonly profile: Profile;
  readonly clock: Clock;
  readonly logger: Logger;
}

/**
 * Platform adapters this build ships, by config name. Each is loaded on first use, so a profile with only
 * Telegram never loads discord.js, Bolt, twilio or imapflow: start-up time and memory stay those of the
 * platforms actually enabled.
 */
export const platformFactories: PlatformLoaders = {
  telegram: async () => (await import('../../adapters/telegram/factory.js')).telegramFactory,
  slack: async () => (await import('../../adapters/slack/factory.js')).slackFactory,
  discord: async () => (await import('../../adapters/discord/factory.js')).discordFactory,
  email: async () => (await import('../../adapters/email/factory.js')).emailFactory,
  sms: async () => (await import('../../adapters/sms/factory.js')).smsFactory,
};

/**
 * Builds one platform's adapter entry from its config block (loading its factory from `loaders`, the built-in ones
 * unless given); undefined when this build has no adapter for it.
 */
export async function buildAdapterEntry<K extends PlatformName>(params: AdapterBuildParams & { name: K; loaders?: PlatformLoaders }): Promise<AdapterEntry | undefined> {
  const loader: PlatformLoader<K> | undefined = (params.loaders ?? platformFactories)[params.name];
  if (!loader) return undefined;
  const factory = await loader();
  const { profile, clock, logger } = params;
  const skillCommands = (): SkillCommand[] => skillCommandsFor({ dir: profile.skillsDir, platform: params.name });
  return factory({ config: params.config.platforms[params.name], cacheDir: profile.cacheDir, skillCommands, clock, logger });
}

/** The skills of `dir` that apply to `platform`, as commands (read from disk at each call). */
export function skillCommandsFor(params: { dir: string; platform: string }): SkillCommand[] {
  return loadSkills({ dir: params.dir })
    .skills.filter((skill) => skillApplies({ skill, platform: params.platform }))
    .map((skill) => ({ name: skill.meta.name, description: skill.meta.description }));
}

/**
 * Throws the UserFacingError (exit 78) `gateway run` gives for a platform with `enabled: true` that this build
 * has no adapter for; `hermes config validate` runs the same check.
 */
export function checkPlatformsAvailable(params: { config: GatewayConfig; configPath: string }): void {
  for (const name of enabledPlatforms({ config: params.config })) {
    if (platformFactories[name]) continue;
    throw new UserFacingError({
      message: `platforms.${name} is enabled in ${params.configPath}, but this version of hermes has no ${name} adapter yet`,
      hint: `Set platforms.${name}.enabled: false, or use \`hermes chat\` to talk to the agent from the terminal.`,
      exitCode: 78,
    });
  }
}

/**
 * The adapters for every platform with `enabled: true` (a token alone never enables one). A platform that is
 * enabled but not part of this build is a clear error, not a silent skip.
 */
export async function adaptersFromConfig(params: AdapterBuildParams): Promise<AdapterEntry[]> {
  checkPlatformsAvailable({ config: params.config, configPath: params.profile.configPath });
  const built = await Promise.all(enabledPlatforms({ config: params.config }).map((name) => buildAdapterEntry({ ...params, name })));
  return built.filter((entry): entry is AdapterEntry => entry !== undefined);
}

/** The names of the platforms with `enabled: true`, in config order. */
function enabledPlatforms(params: { config: GatewayConfig }): PlatformName[] {
  const platforms = params.config.platforms;
  return (Object.keys(platforms) as PlatformName[]).filter((name) => platforms[name].enabled);
}
