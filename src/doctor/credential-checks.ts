import { platforms } from '../../adapters/index.js';
import type { PlatformName } from '../app/config-schema.js';
import type { CredentialCheck, PlatformBlock } from '../core/platform-descriptor.js';

/** Each platform's credentials check, from its descriptor, by config name (`hermes doctor` runs the enabled ones). */
export async function credentialChecks(): Promise<Partial<Record<PlatformName, CredentialCheck<PlatformBlock>>>> {
  // Each check is handed its own platform's block, validated by the same descriptor's schema.
  const loaded = await Promise.all(platforms.map(async (platform) => [platform.name, (await platform.credentialCheck()) as CredentialCheck<PlatformBlock>] as const));
  return Object.fromEntries(loaded);
}
