import type { Logger } from 'pino';
import { discordFactory } from '../../adapters/discord/factory.js';
import { emailFactory } from '../../adapters/email/factory.js';
import { slackFactory } from '../../adapters/slack/factory.js';
import { smsFactory } from '../../adapters/sms/factory.js';
import { telegramFactory } from '../../adapters/telegram/factory.js';
import type { GatewayConfig, PlatformName } from '../config/schema.js';
import type { Profile } from '../home/profile.js';
import type { Clock } from '../util/clock.js';
import { UserFacingError } from './errors.js';
import type { AdapterEntry } from './runner.js';

/** What a platform factory gets. */
export interface PlatformFactoryParams {
  readonly config: GatewayConfig;
  readonly profile: Profile;
  readonly clock: Clock;
  readonly logger: Logger;
}

/** Builds the adapter for one enabled platform. */
export type PlatformFactory = (params: PlatformFactoryParams) => AdapterEntry;

/** Platform adapters this build ships, by config name. Each platform's issue adds its factory here. */
export const platformFactories: Partial<Record<PlatformName, PlatformFactory>> = {
  telegram: telegramFactory,
  slack: slackFactory,
  discord: discordFactory,
  email: emailFactory,
  sms: smsFactory,
};

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
export function adaptersFromConfig(params: PlatformFactoryParams): AdapterEntry[] {
  checkPlatformsAvailable({ config: params.config, configPath: params.profile.configPath });
  const entries: AdapterEntry[] = [];
  for (const name of enabledPlatforms({ config: params.config })) {
    const factory = platformFactories[name];
    if (factory) entries.push(factory(params));
  }
  return entries;
}

/** The names of the platforms with `enabled: true`, in config order. */
function enabledPlatforms(params: { config: GatewayConfig }): PlatformName[] {
  const platforms = params.config.platforms;
  return (Object.keys(platforms) as PlatformName[]).filter((name) => platforms[name].enabled);
}
