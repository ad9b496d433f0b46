import { createHash } from 'node:crypto';
import { platforms } from '../../adapters/index.js';
import type { PlatformName } from '../config/schema.js';
import type { AccountRef, BlockOf } from '../core/platform-descriptor.js';
import type { AppConfig } from './config-schema.js';

/** One account a profile's gateway would log in as, identified by a hash (the secret itself is never kept). */
export interface AccountId {
  /** The platform (config name). */
  readonly platform: PlatformName;
  /** What identifies the account, as config keys, e.g. "platforms.telegram.token". */
  readonly what: string;
  /** sha256 over the platform and the identifying value(s). */
  readonly hash: string;
}

/** Hashes the identifying values; undefined when one of them is missing or empty. */
function accountId(params: { platform: PlatformName; keys: readonly string[]; values: readonly (string | undefined)[] }): AccountId | undefined {
  if (params.values.some((value) => value === undefined || value.trim() === '')) return undefined;
  const hash = createHash('sha256');
  for (const part of [params.platform, ...params.values]) hash.update(`${part ?? ''}\u0000`);
  return { platform: params.platform, what: params.keys.map((key) => `platforms.${params.platform}.${key}`).join(' + '), hash: hash.digest('hex') };
}

/**
 * The accounts of every ENABLED platform in `config`, as each platform's descriptor names them (a bot token, a
 * Twilio account + sending number, a mailbox on an IMAP host).
 */
export function enabledAccounts(params: { config: AppConfig }): AccountId[] {
  return platforms.flatMap((platform) => accountsOf({ descriptor: platform, config: params.config }));
}

/** One platform's accounts when its block is enabled. */
function accountsOf<D extends (typeof platforms)[number]>(params: { descriptor: D; config: AppConfig }): AccountId[] {
  const block = params.config.platforms[params.descriptor.name] as BlockOf<D>;
  if (!block.enabled) return [];
  const refs = (params.descriptor.accounts as (p: { config: BlockOf<D> }) => readonly AccountRef[])({ config: block });
  return refs.map((ref) => accountId({ platform: params.descriptor.name, keys: ref.keys, values: ref.values })).filter((id): id is AccountId => id !== undefined);
}
