import { discordCredentialCheck } from '../../adapters/discord/check.js';
import { emailCredentialCheck } from '../../adapters/email/check.js';
import { slackCredentialCheck } from '../../adapters/slack/check.js';
import { smsCredentialCheck } from '../../adapters/sms/check.js';
import { apiCredentialCheck } from '../../adapters/api/check.js';
import { telegramCredentialCheck } from '../../adapters/telegram/check.js';
import type { PlatformName } from '../config/schema.js';
import type { CredentialCheck } from '../../adapters/kit/credential-check.js';

/** The credentials check of each platform, by config name (`hermes doctor` runs the enabled ones). */
export const credentialChecks: Readonly<Record<PlatformName, CredentialCheck>> = {
  telegram: telegramCredentialCheck,
  slack: slackCredentialCheck,
  discord: discordCredentialCheck,
  email: emailCredentialCheck,
  sms: smsCredentialCheck,
  api: apiCredentialCheck,
};
