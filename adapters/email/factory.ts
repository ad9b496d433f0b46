import type { PlatformFactory } from '../../src/gateway/platforms.js';
import { EmailAdapter } from './adapter.js';

/** Builds the email adapter entry from `platforms.email`; allowlisted addresses match case-insensitively. */
export const emailFactory: PlatformFactory = ({ config, profile, clock, logger }) => {
  const email = config.platforms.email;
  return {
    adapter: new EmailAdapter({ config: email, cacheDir: profile.cacheDir, clock, logger }),
    allow: email.allowed_users.map((address) => address.trim().toLowerCase()),
    unauthorized: email.unauthorized,
  };
};
