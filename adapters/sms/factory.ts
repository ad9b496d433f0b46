import type { PlatformFactory } from '../../src/app/platforms.js';
import { SmsAdapter } from './adapter.js';

/** Builds the SMS (Twilio) adapter entry from `platforms.sms`. */
export const smsFactory: PlatformFactory = ({ config, profile, clock, logger }) => {
  const sms = config.platforms.sms;
  return {
    adapter: new SmsAdapter({ config: sms, cacheDir: profile.cacheDir, clock, logger }),
    allow: sms.allowed_users,
    unauthorized: sms.unauthorized,
  };
};
