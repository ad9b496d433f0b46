import type { GatewayConfig, PlatformName } from '../config/schema.js';
import { UserFacingError } from './errors.js';
import type { AdapterEntry } from './runner.js';

/** Builds the adapter for one enabled platform. */
export type PlatformFactory = (params: { config: GatewayConfig }) => AdapterEntry;

/** Platform adapters this build ships, by config name. Each platform's issue adds its factory here. */
export const platformFactories: Partial<Record<PlatformName, PlatformFactory>> = {};

/**
 * The adapters for every platform with `enabled: true` (a token alone never enables one). A platform that is
 * enabled but not part of this build is a clear error, not a silent skip.
 */
export function adaptersFromConfig(params: { config: GatewayConfig; configPath: string }): AdapterEntry[] {
  const entries: AdapterEntry[] = [];
  const platforms = params.config.platforms;
  for (const name of Object.keys(platforms) as PlatformName[]) {
    if (!platforms[name].enabled) continue;
    const factory = platformFactories[name];
    if (!factory) {
      throw new UserFacingError({
        message: `platforms.${name} is enabled in ${params.configPath}, but this version of hermes has no ${name} adapter yet`,
        hint: `Set platforms.${name}.enabled: false, or use \`hermes chat\` to talk to the agent from the terminal.`,
        exitCode: 78,
      });
    }
    entries.push(factory({ config: params.config }));
  }
  return entries;
}
