import { existsSync } from 'node:fs';
import type { Logger } from 'pino';
import { CONFIG_EXIT_CODE } from '../config/errors.js';
import { loadAppConfig, type AppConfig } from './config-schema.js';
import type { GatewayConfig, PlatformName } from '../config/schema.js';
import { UserFacingError } from '../core/errors.js';
import { enabledAccounts } from './accounts.js';
import type { EnvSnapshot } from '../home/hermes-home.js';
import { listProfiles } from '../home/list-profiles.js';
import type { Profile } from '../home/profile.js';

/** Something this profile would share with another profile's gateway. */
export type Clash =
  | { readonly kind: 'account'; readonly other: Profile; readonly platform: PlatformName; readonly what: string }
  | { readonly kind: 'port'; readonly other: Profile; readonly port: number };

/** What the clash checks take: this profile, its loaded config, and the environment other configs are read with. */
export interface ClashParams {
  readonly profile: Profile;
  readonly config: AppConfig;
  /** The inherited environment; each other profile's own .env is layered over it (never into process.env). */
  readonly env: EnvSnapshot;
  /** Skipped profiles are noted at debug level. */
  readonly logger?: Pick<Logger, 'debug'>;
}

/** The fixed HTTP port a config listens on, or undefined (server disabled, or port 0 = any free one). */
function fixedPort(config: GatewayConfig): number | undefined {
  const { http } = config.gateway;
  return http.enabled && http.port !== 0 ? http.port : undefined;
}

/** The other profiles with a config.yaml that loads; broken ones are skipped (a debug line, never their values). */
async function otherConfigs(params: ClashParams): Promise<{ profile: Profile; config: AppConfig }[]> {
  const others: { profile: Profile; config: AppConfig }[] = [];
  for (const other of listProfiles({ hermesHome: params.profile.hermesHome })) {
    if (other.name === params.profile.name || other.dir === params.profile.dir || !existsSync(other.configPath)) continue;
    try {
      others.push({ profile: other, config: (await loadAppConfig({ profile: other, env: params.env })).config });
    } catch {
      params.logger?.debug({ other: other.name, file: other.configPath }, 'clash check: skipping a profile whose config does not load');
    }
  }
  return others;
}

/**
 * Every way this profile's gateway would collide with another profile's: the same account on an enabled
 * platform (compared by hash), or the same fixed gateway.http.port.
 */
export async function findClashes(params: ClashParams): Promise<Clash[]> {
  const mine = enabledAccounts({ config: params.config });
  const port = fixedPort(params.config);
  const clashes: Clash[] = [];
  for (const other of await otherConfigs(params)) {
    const theirs = new Set(enabledAccounts({ config: other.config }).map((id) => id.hash));
    for (const id of mine) if (theirs.has(id.hash)) clashes.push({ kind: 'account', other: other.profile, platform: id.platform, what: id.what });
    if (port !== undefined && fixedPort(other.config) === port) clashes.push({ kind: 'port', other: other.profile, port });
  }
  return clashes;
}

/** The error a clash gives: names both profiles and the platform or port, never a token. */
export function clashError(params: { profile: Profile; clash: Clash }): UserFacingError {
  const { profile, clash } = params;
  const both = `profiles "${profile.name}" and "${clash.other.name}"`;
  if (clash.kind === 'port') {
    return new UserFacingError({
      message: `${both} both ask for HTTP port ${clash.port} (gateway.http.port); only one gateway can listen there`,
      hint: `Give one of them another port (gateway.http.port in ${profile.configPath} or ${clash.other.configPath}), or 0 for any free port.`,
      exitCode: CONFIG_EXIT_CODE,
    });
  }
  return new UserFacingError({
    message: `${both} both use the same ${clash.platform} account (${clash.what}) with ${clash.platform} enabled`,
    hint:
      `Two gateways on one ${clash.platform} account take each other's messages. Give each profile its own, ` +
      `or set platforms.${clash.platform}.enabled: false in ${profile.configPath} or ${clash.other.configPath}.`,
    exitCode: CONFIG_EXIT_CODE,
  });
}

/** Refuses to start (UserFacingError, exit 78) when this profile clashes with another profile. */
export async function assertNoClashes(params: ClashParams): Promise<void> {
  const [first] = await findClashes(params);
  if (first !== undefined) throw clashError({ profile: params.profile, clash: first });
}
