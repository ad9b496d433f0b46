import type { EmailConfig } from './config-schema.js';
import type { PlatformFactory } from '../../src/core/platform.js';
import { EmailAdapter } from './adapter.js';

/** Builds the email adapter entry from `platforms.email`; allowlisted addresses match case-insensitively. */
export const emailFactory: PlatformFactory<EmailConfig> = ({ config: email, cacheDir, clock, logger }) => {
  if (email.verify_sender === 'off') {
    logger.warn({ platform: 'email' }, 'platforms.email.verify_sender is off: anyone who writes an allowed address into From can talk to the agent');
  } else if (email.trusted_auth_server === undefined) {
    logger.warn(
      { platform: 'email' },
      "platforms.email.trusted_auth_server is not set: the topmost Authentication-Results header decides whether a sender is genuine; set it to your provider's server name (e.g. mx.google.com)",
    );
  }
  return {
    adapter: new EmailAdapter({ config: email, cacheDir: cacheDir, clock, logger }),
    allow: email.allowed_users.map((address) => address.trim().toLowerCase()),
    unauthorized: email.unauthorized,
  };
};
