import type { z } from 'zod';
import { platforms } from '../../adapters/index.js';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import { buildConfigSchema, type ConfigSchema, type ParsedConfigOf, type ResolvedConfig } from '../config/schema.js';
import type { BlockOf, PlatformBlock } from '../core/platform-descriptor.js';
import type { EnvSnapshot } from '../home/hermes-home.js';
import type { Profile } from '../home/profile.js';

/** One of the platforms of adapters/index.ts. */
export type Platform = (typeof platforms)[number];

/** A platform's config name. */
export type PlatformName = Platform['name'];

/** The descriptor of a platform by name. */
export type PlatformOf<K extends PlatformName> = Extract<Platform, { name: K }>;

/** The `platforms:` block, each platform's block typed by its descriptor. */
export type AppPlatformsConfig = { readonly [K in PlatformName]: BlockOf<PlatformOf<K>> };

/** What the whole config.yaml parses to, platforms included. */
export type AppParsedConfig = ParsedConfigOf<AppPlatformsConfig>;

/** The effective configuration with every platform's block typed (what `gateway run`, setup and doctor read). */
export type AppConfig = ResolvedConfig<AppParsedConfig>;

let built: Promise<ConfigSchema<AppParsedConfig>> | undefined;

/**
 * The schema of config.yaml: the core sections plus one block per platform of adapters/index.ts, from each
 * descriptor's own schema (loaded on the first call, then kept).
 */
export function appConfigSchema(): Promise<ConfigSchema<AppParsedConfig>> {
  built ??= (async () => {
    const blocks = await Promise.all(platforms.map(async (platform) => [platform.name, await platform.schema()] as const));
    const shape: Record<string, z.ZodType<PlatformBlock, unknown>> = Object.fromEntries(blocks);
    // The object built holds exactly the descriptors' names, each with that descriptor's schema: what AppParsedConfig says.
    return buildConfigSchema({ platforms: shape }) as ConfigSchema<AppParsedConfig>;
  })();
  return built;
}

/** loadConfig with the app's schema: a profile's effective configuration, every platform's block typed. */
export async function loadAppConfig(params: { profile: Profile; env: EnvSnapshot }): Promise<LoadedConfig<AppParsedConfig>> {
  return loadConfig({ ...params, schema: await appConfigSchema() });
}
