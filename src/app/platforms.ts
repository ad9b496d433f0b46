import type { Logger } from 'pino';
import type { GatewayConfig, PlatformName } from '../config/schema.js';
import type { Profile } from '../home/profile.js';
import type { Clock } from '../core/clock.js';
import { UserFacingError } from '../core/errors.js';
import type { AdapterEntry } from '../gateway/runtime/runner.js';

/** What a platform factory gets. */
export interface PlatformFactoryParams {
  readonly config: GatewayConfig;
  readonly profile: Profile;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** Builds the adapter for one enabled platform. */
export type PlatformFactory = (params: PlatformFactoryParams) => AdapterEntry;

/** Loads a platform's factory (and with it the platform's SDK) when the platform is first needed. */
export type PlatformLoader = () => Promise<PlatformFactory>;

/**
 * Platform adapters this build ships, by config name. Each is loaded on first use, so a profile with only
 * Telegram never loads discord.js, Bolt, twilio or imapflow: start-up time and memory stay those of the
 * platforms actually enabled.
 */
export const platformFactories: Partial<Record<PlatformName, PlatformLoader>> = {
  telegram: async () => (await import('../../adapters/telegram/factory.js')).telegramFactory,
  slack: async () => (await import('../../adapters/slack/factory.js')).slackFactory,
  discord: async () => (await import('../../adapters/discord/factory.js')).discordFactory,
  email: async () => (await import('../../adapters/email/factory.js')).emailFactory,
  sms: async () => (await import('../../adapters/sms/factory.js')).smsFactory,
  api: async () => (await import('../../adapters/api/factory.js')).apiFactory,
};

/** The factory of one platform, loaded; undefined when this build has no adapter for it. */
export async function loadPlatformFactory(params: { name: PlatformName }): Promise<PlatformFactory | undefined> {
  const loader = platformFactories[params.name];
  return loader ? await loader() : undefined;
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
export async function adaptersFromConfig(params: PlatformFactoryParams): Promise<AdapterEntry[]> {
  checkPlatformsAvailable({ config: params.config, configPath: params.profile.configPath });
  const names = enabledPlatforms({ config: params.config });
  const factories = await Promise.all(names.map((name) => loadPlatformFactory({ name })));
  const entries: AdapterEntry[] = [];
  for (const factory of factories) if (factory) entries.push(factory(params));
  return entries;
}

/** The names of the platforms with `enabled: true`, in config order. */
function enabledPlatforms(params: { config: GatewayConfig }): PlatformName[] {
  const platforms = params.config.platforms;
  return (Object.keys(platforms) as PlatformName[]).filter((name) => platforms[name].enabled);
}
