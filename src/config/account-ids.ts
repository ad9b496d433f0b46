import { createHash } from 'node:crypto';
import type { GatewayConfig, PlatformName } from './schema.js';

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
 * The accounts of every ENABLED platform in `config`: a Telegram or Discord bot token, a Slack bot or app token,
 * a Twilio account + sending number (or messaging service), a mailbox (address, else username) on an IMAP host.
 */
export function enabledAccounts(params: { config: GatewayConfig }): AccountId[] {
  const { telegram, slack, discord, email, sms } = params.config.platforms;
  const ids: (AccountId | undefined)[] = [];
  if (telegram.enabled) ids.push(accountId({ platform: 'telegram', keys: ['token'], values: [telegram.token] }));
  if (slack.enabled) {
    ids.push(accountId({ platform: 'slack', keys: ['bot_token'], values: [slack.bot_token] }));
    ids.push(accountId({ platform: 'slack', keys: ['app_token'], values: [slack.app_token] }));
  }
  if (discord.enabled) ids.push(accountId({ platform: 'discord', keys: ['token'], values: [discord.token] }));
  if (sms.enabled) {
    const sender = sms.from_number !== undefined ? 'from_number' : 'messaging_service_sid';
    ids.push(accountId({ platform: 'sms', keys: ['account_sid', sender], values: [sms.account_sid, sms.from_number ?? sms.messaging_service_sid] }));
  }
  if (email.enabled) {
    const mailbox = (email.address ?? email.username)?.toLowerCase();
    const key = email.address !== undefined ? 'address' : 'username';
    ids.push(accountId({ platform: 'email', keys: [key, 'imap_host'], values: [mailbox, email.imap_host?.toLowerCase()] }));
  }
  return ids.filter((id): id is AccountId => id !== undefined);
}
